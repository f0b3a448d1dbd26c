import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { call } from './support/http';
import { uploadSite } from './support/hosting';
import { createMember, uniqueName } from './support/members';
import { TEST_ADMIN_TOKEN } from './support/server';
import { uploadShare } from './support/shares';

useFileServer();

type Entry = Record<string, unknown>;

/** Every page of a list, following next_cursor from the first page. */
async function walk(path: string, field: string, token: string, query: Record<string, string> = {}): Promise<Entry[][]> {
  const pages: Entry[][] = [];
  let cursor: string | null = null;
  do {
    const qs: URLSearchParams = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const r: { status: number; text: string; json: Record<string, any> } = await call('GET', `${path}?${qs}`, { token });
    expect(r.status, r.text).toBe(200);
    pages.push(r.json[field]);
    cursor = r.json.next_cursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return pages;
}

async function sharesWithNotes(token: string, notes: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const note of notes) {
    const { share } = await uploadShare(token, { 'a.txt': Buffer.from(note), 'b/c.txt': Buffer.from('c') }, { note });
    ids.push(share.id);
  }
  return ids;
}

describe('GET /api/shares — pages', () => {
  it('walks the shares newest first with limit and cursor; entries carry file_count and no items', async () => {
    const m = await createMember();
    const ids = await sharesWithNotes(m.token, ['n0', 'n1', 'n2', 'n3', 'n4']);
    const pages = await walk('/api/shares', 'shares', m.token, { limit: '2' });
    expect(pages.map((p) => p.map((s) => s.note))).toEqual([['n4', 'n3'], ['n2', 'n1'], ['n0']]);
    expect(pages.flat().map((s) => s.id)).toEqual([...ids].reverse());
    for (const s of pages.flat()) {
      expect(s.file_count).toBe(2);
      expect(s).not.toHaveProperty('items');
      expect(s).not.toHaveProperty('password_hash');
    }
    // The default page holds them all (50), and says it is the last.
    const first = await call('GET', '/api/shares', { token: m.token });
    expect([first.json.shares.length, first.json.next_cursor]).toEqual([5, null]);
  });

  it('a cursor keeps its place while newer shares are added', async () => {
    const m = await createMember();
    await sharesWithNotes(m.token, ['old0', 'old1', 'old2', 'old3']);
    const page1 = await call('GET', '/api/shares?limit=2', { token: m.token });
    expect(page1.json.shares.map((s: Entry) => s.note)).toEqual(['old3', 'old2']);
    await sharesWithNotes(m.token, ['new0', 'new1']);
    const page2 = await call('GET', `/api/shares?limit=2&cursor=${encodeURIComponent(page1.json.next_cursor)}`, { token: m.token });
    expect(page2.json.shares.map((s: Entry) => s.note)).toEqual(['old1', 'old0']);
    expect(page2.json.next_cursor).toBeNull();
    // A fresh walk sees the new ones first, each share exactly once.
    const all = (await walk('/api/shares', 'shares', m.token, { limit: '3' })).flat().map((s) => s.note);
    expect(all).toEqual(['new1', 'new0', 'old3', 'old2', 'old1', 'old0']);
  });

  it('q finds a substring of the note or the id, case-insensitively; % and _ are literal', async () => {
    const m = await createMember();
    const notes = ['Holiday photos 2026', 'tax_2025 receipts', 'taxes 100%'];
    const ids = await sharesWithNotes(m.token, notes);
    const [holiday] = ids;
    const search = async (q: string) =>
      ((await call('GET', `/api/shares?q=${encodeURIComponent(q)}`, { token: m.token })).json.shares as Entry[]).map((s) => s.note).sort();
    // The id is searched too: a random 16-letter id holds "tax" about once in 2,000 runs, and
    // that share is then rightly found as well.
    const alsoById = (q: string, found: string[]) => [...new Set([...found, ...notes.filter((_, i) => ids[i].toLowerCase().includes(q.toLowerCase()))])].sort();
    expect(await search('HOLIDAY')).toEqual(alsoById('HOLIDAY', ['Holiday photos 2026']));
    expect(await search('tax')).toEqual(alsoById('tax', ['tax_2025 receipts', 'taxes 100%']));
    expect(await search('x_')).toEqual(['tax_2025 receipts']);
    expect(await search('0%')).toEqual(['taxes 100%']);
    expect(await search('%')).toEqual(['taxes 100%']);
    expect(await search(holiday.slice(2, 8))).toEqual(['Holiday photos 2026']);
    expect(await search('nothing like it')).toEqual([]);
    // Another member's matching share stays invisible.
    const other = await createMember();
    await sharesWithNotes(other.token, ['Holiday photos of someone else']);
    expect(await search('holiday')).toEqual(['Holiday photos 2026']);
  });

  it('bad paging input is a 400; a limit above 200 is served as 200', async () => {
    const m = await createMember();
    await sharesWithNotes(m.token, ['x']);
    for (const qs of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'cursor=not-a-cursor', `cursor=${Buffer.from('["x","y"]').toString('base64url')}`]) {
      const r = await call('GET', `/api/shares?${qs}`, { token: m.token });
      expect([r.status, r.json.code], qs).toEqual([400, 'invalid_request']);
    }
    const big = await call('GET', '/api/shares?limit=100000', { token: m.token });
    expect([big.status, big.json.shares.length]).toEqual([200, 1]);
    expect((await call('GET', `/api/shares?q=${'x'.repeat(201)}`, { token: m.token })).status).toBe(400);
  });

  it('one cursor codec: each list walks its own cursors, and refuses another list\'s', async () => {
    const m = await createMember();
    await sharesWithNotes(m.token, ['one', 'two']);
    for (const name of ['a', 'b', 'c']) {
      expect((await call('POST', '/api/tokens', { token: m.token, body: { name, scopes: ['shares:read'] } })).status).toBe(201);
    }
    // Tokens are kept by whole microseconds, shares by PostgreSQL's time: both walk to the end.
    const walk = async (path: string, key: 'tokens' | 'shares', field: 'name' | 'note') => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const r: { status: number; json: Record<string, unknown> & { next_cursor: string | null } } = await call('GET', `${path}?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { token: m.token });
        expect(r.status).toBe(200);
        seen.push(...(r.json[key] as Record<string, string>[]).map((x) => x[field]));
        cursor = r.json.next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await walk('/api/tokens', 'tokens', 'name')).toEqual(['c', 'b', 'a']);
    expect(await walk('/api/shares', 'shares', 'note')).toEqual(['two', 'one']);
    const tokenCursor = (await call('GET', '/api/tokens?limit=1', { token: m.token })).json.next_cursor;
    const shareCursor = (await call('GET', '/api/shares?limit=1', { token: m.token })).json.next_cursor;
    const wrong = [
      await call('GET', `/api/shares?cursor=${tokenCursor}`, { token: m.token }),
      await call('GET', `/api/tokens?cursor=${shareCursor}`, { token: m.token }),
    ];
    expect(wrong.map((r) => [r.status, r.json.code])).toEqual([
      [400, 'invalid_request'],
      [400, 'invalid_request'],
    ]);
  });

  it("the administrator pages every member's shares and finds them by owner", async () => {
    const a = await createMember();
    const b = await createMember();
    const [sa] = await sharesWithNotes(a.token, ['from a']);
    const [sb] = await sharesWithNotes(b.token, ['from b']);
    const byA = (await call('GET', `/api/shares?q=${a.username}`, { token: TEST_ADMIN_TOKEN })).json.shares as Entry[];
    expect(byA.map((s) => s.id)).toEqual([sa]);
    const ids = (await walk('/api/shares', 'shares', TEST_ADMIN_TOKEN, { limit: '1' })).flat().map((s) => s.id);
    expect(ids.indexOf(sb)).toBeLessThan(ids.indexOf(sa));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('GET /api/shares?q= — a search in pages', () => {
  it('pages the matches of a search newest first, by note, id or owner, none twice and none missed', async () => {
    const a = await createMember();
    const b = await createMember();
    const tag = uniqueName('trip');
    // a's shares: three notes with the tag, one without; b's: one with it, one without.
    const [a0, , a2, a3] = await sharesWithNotes(a.token, [`${tag} day 0`, 'other', `day 2 ${tag}`, `${tag.toUpperCase()} day 3`]);
    const [b0] = await sharesWithNotes(b.token, [`${tag} b0`, 'b other']);
    const pages = await walk('/api/shares', 'shares', TEST_ADMIN_TOKEN, { q: tag, limit: '2' });
    expect(pages.map((p) => p.length)).toEqual([2, 2]);
    expect(pages.flat().map((s) => s.id)).toEqual([b0, a3, a2, a0]);
    // The owner's name matches every share of theirs, in pages too; an id matches its share.
    const byOwner = await walk('/api/shares', 'shares', TEST_ADMIN_TOKEN, { q: b.username, limit: '1' });
    expect(byOwner.flat().map((s) => s.note)).toEqual(['b other', `${tag} b0`]);
    expect((await call('GET', `/api/shares?q=${a2}`, { token: TEST_ADMIN_TOKEN })).json.shares.map((s: Entry) => s.id)).toEqual([a2]);
    // A member's search stays within their own shares.
    const mine = await walk('/api/shares', 'shares', a.token, { q: tag, limit: '2' });
    expect(mine.flat().map((s) => s.id)).toEqual([a3, a2, a0]);
  });
});

describe('GET /api/requests?q= — a search in pages', () => {
  it("pages the matches newest first, by note, id or owner; a member's search stays in their own requests", async () => {
    const a = await createMember();
    const b = await createMember();
    const tag = uniqueName('inbox');
    const make = async (token: string, note: string) => (await call('POST', '/api/requests', { token, body: { note } })).json.request.id as string;
    const a0 = await make(a.token, `${tag} first`);
    await make(a.token, 'unrelated');
    const a2 = await make(a.token, `photos ${tag.toUpperCase()}`);
    const b0 = await make(b.token, `${tag} of b`);
    const pages = await walk('/api/requests', 'requests', TEST_ADMIN_TOKEN, { q: tag, limit: '2' });
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    expect(pages.flat().map((r) => r.id)).toEqual([b0, a2, a0]);
    const byOwner = await walk('/api/requests', 'requests', TEST_ADMIN_TOKEN, { q: a.username, limit: '1' });
    expect(byOwner.flat().map((r) => r.note)).toEqual([`photos ${tag.toUpperCase()}`, 'unrelated', `${tag} first`]);
    expect((await call('GET', `/api/requests?q=${a2}`, { token: TEST_ADMIN_TOKEN })).json.requests.map((r: Entry) => r.id)).toEqual([a2]);
    const mine = await walk('/api/requests', 'requests', a.token, { q: tag, limit: '1' });
    expect(mine.flat().map((r) => r.id)).toEqual([a2, a0]);
  });
});

describe('GET /api/shares/:id', () => {
  it('answers the share with its items; another member gets 404, the administrator the share', async () => {
    const a = await createMember();
    const b = await createMember();
    const [id] = await sharesWithNotes(a.token, ['detail']);
    const r = await call('GET', `/api/shares/${id}`, { token: a.token });
    expect(r.status).toBe(200);
    expect(r.json.share).toMatchObject({ id, note: 'detail', file_count: 2 });
    expect(r.json.share.items.map((i: Entry) => i.relative_path).sort()).toEqual(['a.txt', 'b/c.txt']);
    expect(r.json.share).not.toHaveProperty('password_hash');
    const theirs = await call('GET', `/api/shares/${id}`, { token: b.token });
    expect([theirs.status, theirs.json.code]).toEqual([404, 'not_found']);
    expect((await call('GET', `/api/shares/${id}`, { token: TEST_ADMIN_TOKEN })).json.share.items).toHaveLength(2);
    expect((await call('GET', '/api/shares/nosuchshare', { token: a.token })).status).toBe(404);
    expect((await call('GET', `/api/shares/${id}`)).status).toBe(401);
  });
});

describe('GET /api/users — pages', () => {
  it('pages users newest first and finds them by username, name or e-mail', async () => {
    const tag = uniqueName('pg');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const username = `${tag}-${i}`;
      const r = await call('POST', '/api/users', {
        token: TEST_ADMIN_TOKEN,
        body: { username, password: 'long enough', display_name: `Person ${i}`, email: `${tag}${i}@example.com` },
      });
      expect(r.status).toBe(201);
      made.push(username);
    }
    const pages = await walk('/api/users', 'users', TEST_ADMIN_TOKEN, { q: tag, limit: '2' });
    expect(pages.map((p) => p.map((u) => u.username))).toEqual([[made[2], made[1]], [made[0]]]);
    expect(pages.flat()[0]).not.toHaveProperty('password_hash');
    const byMail = await call('GET', `/api/users?q=${encodeURIComponent(`${tag}1@example`)}`, { token: TEST_ADMIN_TOKEN });
    expect(byMail.json.users.map((u: Entry) => u.username)).toEqual([made[1]]);
    const m = await createMember();
    expect((await call('GET', '/api/users', { token: m.token })).status).toBe(403);
  });
});

describe('GET /api/files and GET /api/projects/:slug', () => {
  it('pages projects without their files; the project route has them; 404 for an unknown slug', async () => {
    const tag = uniqueName('pj');
    const slugs = [`${tag}-a`, `${tag}-b`, `${tag}-c`];
    for (const slug of slugs) {
      const r = await uploadSite({ 'index.html': '<h1>x</h1>', 'css/a.css': 'a{}' }, { slug, note: `note of ${slug}` });
      expect(r.status, r.text).toBe(201);
    }
    const pages = await walk('/api/files', 'projects', TEST_ADMIN_TOKEN, { q: tag, limit: '2' });
    expect(pages.map((p) => p.map((x) => x.slug))).toEqual([[slugs[2], slugs[1]], [slugs[0]]]);
    for (const p of pages.flat()) {
      expect(p).toMatchObject({ file_count: 2, online_count: 2, has_html: true, total_bytes: 13 });
      expect(p).not.toHaveProperty('files');
    }
    const one = await call('GET', `/api/projects/${slugs[0]}`, { token: TEST_ADMIN_TOKEN });
    expect(one.status).toBe(200);
    expect(one.json.project.files.map((f: Entry) => f.path).sort()).toEqual(['css/a.css', 'index.html']);
    expect((await call('GET', `/api/projects/${tag}-none`, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
    const m = await createMember();
    expect((await call('GET', `/api/projects/${slugs[0]}`, { token: m.token })).status).toBe(403);
    expect((await call('GET', `/api/files?q=${encodeURIComponent('note of ' + slugs[1])}`, { token: TEST_ADMIN_TOKEN })).json.projects).toHaveLength(1);
  });
});
