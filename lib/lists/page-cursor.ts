import 'server-only';
import type { PageAfter, PageQuery } from '@/db/queries/lists';
import type { ListQuery } from '../contract/lists';
import { badRequest } from '../errors';

/**
 * The opaque `cursor` of a list page: the last entry's creation time (PostgreSQL's text, with
 * microseconds) and key, base64url'd JSON. Opaque to clients so its shape may change; it names
 * a position, not a row, so a deleted row never breaks the walk.
 */
export const encodeCursor = (after: PageAfter | null): string | null =>
  after === null ? null : Buffer.from(JSON.stringify([after.at, after.key])).toString('base64url');

const TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;

function decodeCursor(cursor: string): PageAfter {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw badRequest('cursor is not one this list gave out');
  const [at, key] = parsed as unknown[];
  if (typeof at !== 'string' || !TIME.test(at) || typeof key !== 'string' || key.length === 0 || key.length > 128) {
    throw badRequest('cursor is not one this list gave out');
  }
  return { at, key };
}

/** The validated `?limit=&cursor=&q=` as the database layer takes it. */
export function pageQueryOf(query: ListQuery, keyIsUuid = false): PageQuery {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  if (after && keyIsUuid && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(after.key)) {
    throw badRequest('cursor is not one this list gave out');
  }
  const q = query.q?.trim();
  return { limit: query.limit, after, q: q ? q : null };
}
