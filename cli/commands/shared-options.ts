import type { Options } from '../command';

export const INCLUDE_DOTFILES = {
  'include-dotfiles': {
    type: 'boolean',
    description: 'Also send .git/, .hg/, .svn/, .env* and node_modules/ (left out by default: they hold secrets)',
  },
} as const satisfies Options;

export const GENERATE_PASSWORD = {
  'generate-password': { type: 'boolean', description: 'Make up a strong password and print it' },
} as const satisfies Options;
