import 'server-only';
import { listAllShares, listSharesByOwner } from '@/db/queries/shares';
import { isAdmin, type Principal } from '../auth/principal';
import type { Runtime } from '../runtime';
import { toShareDto, type ShareDto } from './share-dto';

/** GET /api/shares: members see their own shares; the administrator sees everyone's. */
export async function listSharesFor(rt: Runtime, principal: Principal): Promise<ShareDto[]> {
  const rows = principal.kind === 'user' && !isAdmin(principal) ? await listSharesByOwner(rt.db, principal.user.id) : await listAllShares(rt.db);
  return rows.map(toShareDto);
}
