import type { Options } from '../command';

export const INCLUDE_DOTFILES = {
  'include-dotfiles': {
    type: 'boolean',
    description: 'Also send .git/, .hg/, .svn/, .env* and node_modules/ (left out by default: they hold secrets)',
  },
} as const satisfies Options;

/** --password is a flag: the secret itself comes from HTMLS_GUEST_PASSWORD or a hidden prompt, never an argument. */
export const GUEST_PASSWORD = (who: string) =>
  ({
    password: { type: 'boolean', description: `Ask ${who} for a password (typed at a hidden prompt, or HTMLS_GUEST_PASSWORD)` },
    'generate-password': { type: 'boolean', description: 'Make up a strong password and print it' },
  }) as const satisfies Options;

/** --max-downloads N: whole downloads guests get, then the link refuses. */
export const MAX_DOWNLOADS = {
  'max-downloads': { type: 'string', value: 'N', description: 'Guests may download at most N times (items or the ZIP), then the link refuses' },
} as const satisfies Options;
