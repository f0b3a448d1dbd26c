import 'server-only';
import { pageShares } from '@/db/queries/lists';
import { findShareOwnedBy } from '@/db/queries/shares';
import type { Principal } from '../auth/principal';
import { managedBy } from '../auth/owner';
import type { ListQuery } from '../contract/lists';
import { notFound } from '../errors';
import { encodeCursor, pageQueryOf } from '../lists/page-cursor';
import type { Runtime } from '../runtime';
import { toShareDto, toShareSummaryDto, type ShareDto, type ShareSummaryDto } from './share-dto';

/** GET /api/shares: a page of the caller's shares (the administrator: everyone's), without items. */
export async function listSharesFor(rt: Runtime, principal: Principal, query: ListQuery & { request?: string }): Promise<{ shares: ShareSummaryDto[]; next_cursor: string | null }> {
  const page = await pageShares(rt.db, managedBy(principal), pageQueryOf(query), query.request);
  return { shares: page.rows.map(toShareSummaryDto), next_cursor: encodeCursor(page.next) };
}

/** GET /api/shares/:id — with its items; another member's share is "not found". */
export async function getShareFor(rt: Runtime, principal: Principal, id: string): Promise<ShareDto> {
  const share = await findShareOwnedBy(rt.db, managedBy(principal), id);
  if (!share) throw notFound('No such share');
  return toShareDto(share);
}
