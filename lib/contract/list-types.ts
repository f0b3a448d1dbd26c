/**
 * The paged lists (API.md: "Lists page"), the field each answer holds its entries in, and their
 * entry types, for the clients (no zod here: browser code imports it).
 */
import type { ResponseOf } from './operations';

export const LIST_FIELD = { listShares: 'shares', listUsers: 'users', listProjects: 'projects', listRequests: 'requests' } as const;
export type ListName = keyof typeof LIST_FIELD;

interface Entries {
  listShares: ResponseOf<'listShares'>['shares'][number];
  listUsers: ResponseOf<'listUsers'>['users'][number];
  listProjects: ResponseOf<'listProjects'>['projects'][number];
  listRequests: ResponseOf<'listRequests'>['requests'][number];
}
export type ListEntry<N extends ListName> = Entries[N];

/** One page as it arrives: its entries under LIST_FIELD[name], and where the next starts. */
export type ListPage<N extends ListName> = { [K in (typeof LIST_FIELD)[N]]: ListEntry<N>[] } & { next_cursor: string | null };

/** `?limit=&cursor=&q=` of a list. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
  q?: string;
}

export function pageQueryString(query?: PageQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}
