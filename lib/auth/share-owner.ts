import 'server-only';
import type { ShareOwner } from '@/db/queries/shares';
import { isAdmin, ownerIdOf, type Principal } from './principal';

/** Whose shares the caller manages: the administrator every owner's, a member their own. */
export const shareOwnerOf = (p: Principal): ShareOwner => (isAdmin(p) ? 'any' : { ownerId: ownerIdOf(p) });
