import 'server-only';
import type { PageAfter, PageQuery, UsPosition } from '@/db/queries/lists';
import type { ListQuery } from '../contract/lists';
import { badRequest } from '../errors';
import { isUuid } from '../is-uuid';

/**
 * The one codec of a list's opaque `cursor`: the last entry's position (its creation time) and
 * key, base64url'd JSON `[position, key]`. Opaque to clients so its shape may change; it names
 * a position, not a row, so a deleted row never breaks the walk. Two position forms decode with
 * it: PostgreSQL's text time with microseconds (shares, requests, projects, accounts) and whole
 * microseconds since the epoch (tokens, webhooks, the audit log).
 */
const encode = (position: string, key: string) => Buffer.from(JSON.stringify([position, key])).toString('base64url');

const TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;
const MICROSECONDS = /^\d{1,20}$/;

const notOurs = () => badRequest('cursor is not one this list gave out');

function decode(cursor: string, position: RegExp, key: (k: string) => boolean): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw notOurs();
  const [p, k] = parsed as unknown[];
  if (typeof p !== 'string' || !position.test(p) || typeof k !== 'string' || !key(k)) throw notOurs();
  return [p, k];
}

export const encodeCursor = (after: PageAfter | null): string | null => (after === null ? null : encode(after.at, after.key));

/** The validated `?limit=&cursor=&q=` as the database layer takes it. */
export function pageQueryOf(query: ListQuery, keyIsUuid = false): PageQuery {
  const after = query.cursor
    ? ((([at, key]) => ({ at, key }))(decode(query.cursor, TIME, (k) => k.length > 0 && k.length <= 128 && (!keyIsUuid || isUuid(k)))) satisfies PageAfter)
    : null;
  const q = query.q?.trim();
  return { limit: query.limit, after, q: q ? q : null };
}

/** The cursor of a list kept by whole microseconds and a uuid key. */
export const encodeUsCursor = (after: UsPosition): string => encode(after.createdAtUs, after.id);

export function decodeUsCursor(cursor: string): UsPosition {
  const [createdAtUs, id] = decode(cursor, MICROSECONDS, (k) => isUuid(k));
  return { createdAtUs, id };
}
