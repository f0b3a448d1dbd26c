/**
 * Paths a site upload leaves out unless asked (`--include-dotfiles`, or the console's
 * checkbox): version-control folders, environment files and dependencies, which a deploy of a
 * working copy would otherwise publish (a token in .git/config, secrets in .env). Browser and
 * Node alike.
 */
const PRIVATE_SEGMENT = /^(\.git|\.hg|\.svn|node_modules|\.env.*)$/i;

export const isPrivatePath = (path: string) => path.split('/').some((segment) => PRIVATE_SEGMENT.test(segment));
