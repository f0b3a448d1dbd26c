/**
 * The scale bench (issue 28 item 5): MEMBERS members, SHARES shares and ITEMS items written
 * straight into the database (set-based INSERT … SELECT: the point is the size of the tables, not
 * how they were filled), then p50/p95 of what a page view costs on them: a member's first page
 * of GET /api/shares, the administrator's first page, a search by each, and the server render of
 * /files and /. `--scale-factor 0.1` seeds a tenth (this busy machine); the full size is 1.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createDb } from '../../db/client';
import { applyMigrations } from '../../db/migrate';
import { TEST_ADMIN_TOKEN } from '../../tests/support/server';
import { addRow, fmt, log, option, pct, quick, request, rows } from './common';

export const SCALE_FACTOR = option('scale-factor', quick ? 0.01 : 1);
const MEMBERS = Math.max(10, Math.round(1000 * SCALE_FACTOR));
const SHARES = Math.max(100, Math.round(100_000 * SCALE_FACTOR));
const ITEMS_PER_SHARE = 10;
const SAMPLES = quick ? 40 : 200;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Seeds the tables and returns a few member session tokens (sessions written with the rest). */
export async function seedScale(env: Record<string, string | undefined>, dataDir: string): Promise<string[]> {
  const dbh = await createDb({ url: env.DATABASE_URL, dataDir });
  await applyMigrations(dbh, env.DATABASE_URL);
  const { db } = dbh;
  const t0 = performance.now();
  // Members m00000…, each with a session whose token the bench knows; shares spread over the
  // members and over the last year, every tenth one with "holiday" in its note.
  await db.execute(sql`insert into users (username, password_hash, display_name, email, quota_bytes, created_at)
    select 'scale-' || lpad(n::text, 6, '0'), 'x', 'Member ' || n, 'm' || n || '@example.com', 1099511627776,
           now() - make_interval(days => n % 365)
    from generate_series(1, ${MEMBERS}::int) as n`);
  const tokens = Array.from({ length: Math.min(MEMBERS, 20) }, () => randomBytes(24).toString('base64url'));
  for (const [i, token] of tokens.entries()) {
    await db.execute(sql`insert into sessions (token_hash, kind, user_id, expires_at)
      select ${sha256(token)}, 'member', id, now() + interval '1 day' from users where username = ${`scale-${String(i + 1).padStart(6, '0')}`}`);
  }
  for (let from = 1; from <= SHARES; from += 20_000) {
    const to = Math.min(SHARES, from + 19_999);
    await db.execute(sql`insert into share_groups (id, user_id, note, status, upload_state, total_bytes, created_at)
      select 'sc' || lpad(n::text, 8, '0'), u.id,
             case when n % 10 = 0 then 'holiday photos ' || n else 'share number ' || n end,
             'online', 'complete', ${ITEMS_PER_SHARE * 10_000}::bigint,
             now() - make_interval(secs => n * 311)
      from generate_series(${from}::int, ${to}::int) as n
      join (select id, row_number() over (order by username) as k from users) u on u.k = 1 + (n % ${MEMBERS}::int)`);
    await db.execute(sql`insert into share_items (group_id, relative_path, path_key, storage_key, size, content_type, etag)
      select 'sc' || lpad(n::text, 8, '0'), 'photos/img-' || i || '.jpg', 'photos/img-' || i || '.jpg',
             'shared/sc' || lpad(n::text, 8, '0') || '/photos/img-' || i || '.jpg', 10000, 'image/jpeg', '"seed"'
      from generate_series(${from}::int, ${to}::int) as n, generate_series(1, ${ITEMS_PER_SHARE}::int) as i`);
    log(`  seeded ${fmt(to)} of ${fmt(SHARES)} shares (${fmt((performance.now() - t0) / 1000, 1)} s)`);
  }
  await db.execute(sql`analyze`);
  await dbh.close();
  log(`  seeded ${fmt(MEMBERS)} members, ${fmt(SHARES)} shares, ${fmt(SHARES * ITEMS_PER_SHARE)} items in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  return tokens;
}

async function timed(label: string, urls: () => { url: string; headers: Record<string, string> }, check: (status: number, body: Buffer) => void): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const { url, headers } = urls();
    const t0 = performance.now();
    const r = await request(url, { headers });
    ms.push(performance.now() - t0);
    check(r.status, r.body);
  }
  log(`  ${label}: p50 ${fmt(pct(ms, 50), 1)} ms, p95 ${fmt(pct(ms, 95), 1)} ms`);
  return ms;
}

export async function benchScale(base: string, tokens: string[], db: 'PGlite' | 'PostgreSQL'): Promise<void> {
  let k = 0;
  const member = () => tokens[k++ % tokens.length];
  const page = (expectCount: (n: number) => boolean) => (status: number, body: Buffer) => {
    if (status !== 200) throw new Error(`status ${status}: ${body.toString().slice(0, 200)}`);
    const n = JSON.parse(body.toString()).shares.length;
    if (!expectCount(n)) throw new Error(`unexpected page of ${n}`);
  };
  const html = (status: number) => {
    if (status !== 200) throw new Error(`status ${status}`);
  };
  const size = `${fmt(SHARES)} shares, ${fmt(SHARES * ITEMS_PER_SHARE)} items, ${db}`;
  const row = (metric: string, ms: number[], goal: boolean) => {
    addRow(`${metric} p95 (${size})`, pct(ms, 95), 'ms', null, '', goal ? { max: 50, text: 'goal < 50 ms' } : undefined, false);
    rows[rows.length - 1].baseline = `p50 ${fmt(pct(ms, 50), 1)} ms`;
  };
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
  // Warm-up: the first requests load Next's chunks and prepare statements.
  for (let i = 0; i < 5; i++) await request(`${base}/api/shares`, { headers: bearer(member()) });
  // The floor under every API row: the same sign-in and route machinery, no list.
  row('GET /api/auth/me (the floor: sign-in, no list)', await timed('me', () => ({ url: `${base}/api/auth/me`, headers: bearer(member()) }), html), false);
  row("a member's first page of /api/shares", await timed('member page', () => ({ url: `${base}/api/shares`, headers: bearer(member()) }), page((n) => n > 0)), true);
  row("the administrator's first page", await timed('admin page', () => ({ url: `${base}/api/shares`, headers: bearer(TEST_ADMIN_TOKEN) }), page((n) => n === 50)), true);
  row("a member's search (q=holiday)", await timed('member search', () => ({ url: `${base}/api/shares?q=holiday`, headers: bearer(member()) }), page((n) => n >= 0)), true);
  row("the administrator's search (q=holiday)", await timed('admin search', () => ({ url: `${base}/api/shares?q=holiday`, headers: bearer(TEST_ADMIN_TOKEN) }), page((n) => n === 50)), true);
  // The worst case for a substring search: one match among every share (no index can help ILIKE '%…%').
  row("the administrator's search matching one share", await timed('admin rare search', () => ({ url: `${base}/api/shares?q=sc00000042`, headers: bearer(TEST_ADMIN_TOKEN) }), page((n) => n === 1)), true);
  row('/files server render (a member)', await timed('/files', () => ({ url: `${base}/files`, headers: { Cookie: `htmls_user_session=${member()}` } }), html), false);
  row('/ server render', await timed('/', () => ({ url: `${base}/`, headers: {} }), html), false);
}
