import type { UserRow } from '@/db/schema';

export type Principal =
  | { kind: 'admin'; user: null; via: 'token' | 'session'; tokenHash?: string }
  | { kind: 'user'; user: UserRow; tokenHash: string };

export type Role = 'admin' | 'member';

/** A user with role admin has every right of the Admin Token. */
export const isAdmin = (p: Principal): boolean => p.kind === 'admin' || p.user.role === 'admin';
export const roleOf = (p: Principal): Role => (isAdmin(p) ? 'admin' : 'member');
/** Owner id for share rows: null for the Admin Token itself. */
export const ownerIdOf = (p: Principal): string | null => (p.kind === 'user' ? p.user.id : null);
