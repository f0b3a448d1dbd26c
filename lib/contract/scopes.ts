/**
 * Access-token scopes (API.md "Access tokens and one-request uploads"). No zod here: the
 * consoles' scope check boxes read this list too.
 */
export const MEMBER_SCOPES = ['shares:read', 'shares:write', 'requests:read', 'requests:write', 'account:read'] as const;
/** Held only while the token's owner is an administrator. */
export const ADMIN_SCOPES = ['sites:deploy', 'admin'] as const;
export const SCOPES = [...MEMBER_SCOPES, ...ADMIN_SCOPES] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What an operation asks of an access token (lib/contract/operations.ts declares one on each):
 * a scope; `sites:deploy:{slug}` (the project's own `sites:deploy:<slug>`, `sites:deploy` or
 * `admin`); `public` (no credentials needed, so a token adds nothing); `no-token` (tokens,
 * passwords, the Admin Token and the account are managed by a signed-in person only).
 */
export type OperationScope = Scope | 'sites:deploy:{slug}' | 'public' | 'no-token';

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'shares:read': 'List your shares',
  'shares:write': 'Create, upload, edit and delete shares',
  'requests:read': 'List your file requests',
  'requests:write': 'Create, edit and delete file requests',
  'account:read': 'Read your profile, quota and usage',
  'sites:deploy': 'Deploy, list deploys of and roll back every hosted project (administrators)',
  admin: 'Every administrator operation (administrators)',
};

export const SECRET_PREFIX = 'htmls_pat_';
/** Length of AccessToken.prefix: "htmls_pat_" and four characters of the secret. */
export const PREFIX_LENGTH = 14;
const SLUG = /^[a-z0-9_-]{1,64}$/;
const DEPLOY_ONE = /^sites:deploy:(.+)$/;

/** The project of a `sites:deploy:<slug>` scope, or null. */
export const deployScopeSlug = (scope: string): string | null => {
  const m = DEPLOY_ONE.exec(scope);
  return m && SLUG.test(m[1]) ? m[1] : null;
};
export const isScope = (s: string): boolean => (SCOPES as readonly string[]).includes(s) || deployScopeSlug(s) !== null;
/** Scopes only an administrator may hold. */
export const isAdminScope = (s: string): boolean => !(MEMBER_SCOPES as readonly string[]).includes(s);
