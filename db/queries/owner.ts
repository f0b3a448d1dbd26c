import { eq, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Whose rows a query may touch — the one owner type of every owned table (shares, file
 * requests, access tokens, webhooks): one account's (`ownerId`; null is the administrator's
 * own, made with the Admin Token), or anyone's (`'any'`: the administrator managing members').
 */
export type Owner = { ownerId: string | null } | 'any';

/** The condition on a table's owner column (undefined: no condition, for `'any'`). */
export const ownedBy = (column: PgColumn, owner: Owner): SQL | undefined =>
  owner === 'any' ? undefined : owner.ownerId === null ? isNull(column) : eq(column, owner.ownerId);
