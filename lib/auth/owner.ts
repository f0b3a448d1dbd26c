import 'server-only';
import type { Owner } from '@/db/queries/owner';
import { isAdmin, ownerIdOf, type Principal } from './principal';

/** Whose shares and file requests the caller manages: the administrator every owner's, a member their own. */
export const managedBy = (p: Principal): Owner => (isAdmin(p) ? 'any' : { ownerId: ownerIdOf(p) });
