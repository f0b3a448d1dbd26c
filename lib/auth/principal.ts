import type { UserRow } from '@/db/schema';

/**
 * What an access token brought to a request: its id and its scopes as stored. What it may do is
 * those scopes intersected with the owner's role now (lib/auth/scopes.ts).
 */
export interface TokenGrant {
  tokenId: string;
  scopes: string[];
  /** The token's name and its secret's first characters, as the audit log names who acted. */
  name?: string;
  prefix?: string;
}

export type Principal =
  | { kind: 'admin'; user: null; via: 'token' | 'session' | 'access-token'; tokenHash?: string; grant?: TokenGrant }
  | { kind: 'user'; user: UserRow; tokenHash: string; grant?: TokenGrant };

export type Role = 'admin' | 'member';

/** A user with role admin has every right of the Admin Token. */
export const isAdmin = (p: Principal): boolean => p.kind === 'admin' || p.user.role === 'admin';
export const roleOf = (p: Principal): Role => (isAdmin(p) ? 'admin' : 'member');
/** Owner id for share rows: null for the Admin Token itself. */
export const ownerIdOf = (p: Principal): string | null => (p.kind === 'user' ? p.user.id : null);
