/**
 * File requests (issue 24, API.md "File requests"): the resource, a guest's upload on the share
 * upload protocol with an upload token, that token's confinement, and every limit at init and
 * again at complete. Runs on the embedded default and on PostgreSQL + S3 (direct parts there).
 */
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminSession, call, cookieFrom, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { putPart, uploadShare, type InitFile } from './support/shares';
import { TEST_ADMIN_TOKEN } from './support/server';
import { testStore } from './support/store';

// Next's pages: the upload page /r/<id>.
useFileServer({ REQUEST_MAX_PENDING: '3', REQUEST_MAX_BYTES: String(200 * 1024 ** 2) }, { pages: true });

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082', 'hex');

async function newRequest(owner: Member, body: Record<string, unknown> = {}) {
  const r = await call('POST', '/api/requests', { token: owner.token, body });
  expect(r.status, r.text).toBe(201);
  return r.json.request as { id: string; url: string; [k: string]: unknown };
}

type Files = Record<string, Buffer>;

const initGuest = (id: string, files: Files, extra: Record<string, unknown> = {}, opts: { ip?: string; cookie?: string } = {}) =>
  call('POST', `/api/requests/${id}/upload`, {
    ip: opts.ip,
    headers: opts.cookie ? { Cookie: opts.cookie } : undefined,
    body: { ...extra, files: Object.entries(files).map(([clientPath, data]) => ({ clientPath, size: data.length })) },
  });

/** Sends every part of an init's files with the upload token; returns the complete body. */
async function sendParts(token: string, init: any, files: Files) {
  const parts: Record<string, { partNumber: number; etag: string }[]> = {};
  for (const f of init.files as InitFile[]) {
    parts[f.uploadId] = [];
    for (let n = 1; n <= f.partCount; n++) {
      const piece = files[f.clientPath].subarray((n - 1) * init.partSize, n * init.partSize);
      const r = await putPart(token, { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: n }, piece, init.mode);
      expect(r.status, r.text).toBe(200);
      parts[f.uploadId].push({ partNumber: n, etag: r.etag });
    }
  }
  return { groupId: init.groupId, files: (init.files as InitFile[]).map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: parts[f.uploadId] })) };
}

/** A guest's whole upload: init, parts, complete. */
async function guestUpload(id: string, files: Files, extra: Record<string, unknown> = {}) {
  const init = await initGuest(id, files, extra);
  if (init.status !== 201) return { init, complete: null };
  const body = await sendParts(init.json.uploadToken, init.json, files);
  const complete = await call('POST', '/api/shares/upload/complete', { token: init.json.uploadToken, body });
  return { init, complete };
}

const usedBytes = async (m: Member) => (await call('GET', '/api/auth/me', { token: m.token })).json.user.used_bytes as number;
const pendingReserved = async (m: Member) => {
  const list = await call('GET', '/api/shares?limit=200', { token: m.token });
  return (list.json.shares as any[]).filter((s) => s.upload_state === 'pending');
};

describe('the request resource', () => {
  it('creates, lists, edits (null clears), closes, reopens and deletes; another member sees nothing', async () => {
    const owner = await createMember();
    const other = await createMember();
    const req = await newRequest(owner, { note: 'Raw footage, please', max_files: 10, max_bytes: 2 * 1024 ** 3 > 200 * 1024 ** 2 ? 100 * 1024 ** 2 : 1, allowed_types: ['video/*', '.PDF'], require_name: true, password: 'open sesame' });
    expect(req).toMatchObject({
      note: 'Raw footage, please',
      status: 'open',
      has_password: true,
      user_id: owner.id,
      username: owner.username,
      max_files: 10,
      max_bytes: 100 * 1024 ** 2,
      max_uploads: null,
      require_name: true,
      allowed_types: ['video/*', '.pdf'],
      upload_count: 0,
      received_bytes: 0,
      url: `/r/${req.id}`,
    });
    expect(JSON.stringify(req)).not.toMatch(/sesame|scrypt/);
    const list = await call('GET', '/api/requests', { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json.requests.map((r: any) => r.id)).toEqual([req.id]);
    expect(list.json.next_cursor).toBeNull();
    expect((await call('GET', '/api/requests', { token: other.token })).json.requests).toEqual([]);
    for (const [method, path] of [['GET', `/api/requests/${req.id}`], ['PATCH', `/api/requests/${req.id}`], ['DELETE', `/api/requests/${req.id}`]] as const) {
      const r = await call(method, path, { token: other.token, body: method === 'PATCH' ? { status: 'closed' } : undefined });
      expect([method, r.status, r.json.code]).toEqual([method, 404, 'not_found']);
    }
    const patched = await call('PATCH', `/api/requests/${req.id}`, { token: owner.token, body: { max_files: null, allowed_types: null, password: null, max_uploads: 3 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.request).toMatchObject({ max_files: null, allowed_types: null, has_password: false, max_uploads: 3, max_bytes: 100 * 1024 ** 2 });
    expect((await call('PATCH', `/api/requests/${req.id}`, { token: owner.token, body: { status: 'closed' } })).json.request.status).toBe('closed');
    expect((await initGuest(req.id, { 'a.txt': Buffer.from('x') }, { name: 'Dana' })).status).toBe(404);
    expect((await call('GET', `/r/${req.id}`)).status).toBe(404);
    expect((await call('PATCH', `/api/requests/${req.id}`, { token: owner.token, body: { status: 'open' } })).json.request.status).toBe('open');
    expect((await initGuest(req.id, { 'a.txt': Buffer.from('x') }, { name: 'Dana' })).status).toBe(201);
    expect((await call('DELETE', `/api/requests/${req.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/api/requests/${req.id}`, { token: owner.token })).status).toBe(404);
    // Its unfinished upload went with it: nothing stays reserved.
    expect(await pendingReserved(owner)).toEqual([]);
  });

  it('validates input with the contract errors, and caps max_bytes at REQUEST_MAX_BYTES', async () => {
    const owner = await createMember();
    for (const body of [{ max_files: 0 }, { max_files: 501 }, { allowed_types: ['not a type'] }, { allowed_types: [] }, { expires_at: '2001-01-01T00:00:00Z' }, { max_uploads: 1.5 }, { require_name: 'yes' }]) {
      const r = await call('POST', '/api/requests', { token: owner.token, body });
      expect([JSON.stringify(body), r.status, r.json.code]).toEqual([JSON.stringify(body), 400, 'invalid_request']);
    }
    const capped = await call('POST', '/api/requests', { token: owner.token, body: { max_bytes: 201 * 1024 ** 2 } });
    expect([capped.status, capped.json.code]).toEqual([400, 'too_large']);
    expect((await call('POST', '/api/requests', { body: {} })).status).toBe(401);
    // The Admin Token has no account to receive into.
    const admin = await adminSession();
    expect((await call('POST', '/api/requests', { token: admin.token, body: {} })).status).toBe(403);
  });

  it('the administrator lists every request and can close any', async () => {
    const a = await newRequest(await createMember());
    const b = await newRequest(await createMember());
    const admin = await adminSession();
    const all = await call('GET', '/api/requests?limit=200', { token: admin.token });
    expect(all.status).toBe(200);
    const ids = all.json.requests.map((r: any) => r.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    const closed = await call('PATCH', `/api/requests/${b.id}`, { token: admin.token, body: { status: 'closed' } });
    expect([closed.status, closed.json.request.status]).toEqual([200, 'closed']);
  });
});

describe('the upload page /r/<id>', () => {
  it("shows the owner's note and name and the limits in plain words, under the pages' CSP; opening it consumes nothing", async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { note: 'Footage for the <edit>', max_files: 10, max_bytes: 100 * 1024 ** 2, allowed_types: ['.pdf', 'video/*'], max_uploads: 1 });
    for (let i = 0; i < 3; i++) {
      const page = await call('GET', `/r/${req.id}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toMatch(/script-src[^;]*'nonce-/);
      expect(page.text).toContain('Footage for the &lt;edit&gt;');
      expect(page.text).toContain(owner.username);
      expect(page.text).toContain('Up to 10 files, 100 MB in all, PDF or video.');
    }
    expect((await call('GET', `/api/requests/${req.id}`, { token: owner.token })).json.request.upload_count).toBe(0);
  });

  it('a locked request renders once unlocked, and its page hands the unlock to the init', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { password: 'letmein-42' });
    const unlock = await call('POST', `/r/${req.id}/unlock`, { body: { password: 'letmein-42' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_request_unlock_${req.id}`);
    const page = await call('GET', `/r/${req.id}`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const value = cookie.split('=')[1];
    expect(page.text).toContain(value);
    expect((await initGuest(req.id, { 'a.txt': Buffer.from('a') }, { unlock: value })).status).toBe(201);
    expect((await initGuest(req.id, { 'a.txt': Buffer.from('a') }, { unlock: 'x'.repeat(10) })).status).toBe(401);
  });
});

describe('a guest upload', () => {
  it('becomes an offline share of the owner with who sent it, charged to the owner; the request counts it', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { note: 'Send the photos' });
    const files = { 'holiday/a.txt': Buffer.from('hello from dana'), 'holiday/b/c.bin': Buffer.alloc(3000, 7) };
    const { init, complete } = await guestUpload(req.id, files, { name: 'Dana', email: 'dana@example.com', message: 'Here you go' });
    expect(init.status, init.text).toBe(201);
    expect(init.json.uploadToken).toMatch(/^htmls_upl_/);
    expect(complete!.status, complete!.text).toBe(200);
    const share = complete!.json.share;
    expect(share).toMatchObject({
      status: 'offline',
      upload_state: 'complete',
      // The guest's answer is their own upload's, without who asked for it (issue 39, Info).
      user_id: null,
      username: null,
      file_count: 2,
      total_bytes: 3015,
      received: { request_id: req.id, name: 'Dana', email: 'dana@example.com', message: 'Here you go' },
    });
    expect(await usedBytes(owner)).toBe(3015);
    const after = (await call('GET', `/api/requests/${req.id}`, { token: owner.token })).json.request;
    expect(after).toMatchObject({ upload_count: 1, received_bytes: 3015 });
    // Private until the owner publishes it; then it is a share like any other.
    expect((await call('GET', `/f/${share.id}`)).status).toBe(404);
    // The request's uploads: GET /api/shares?request=<id>.
    const byRequest = await call('GET', `/api/shares?request=${req.id}`, { token: owner.token });
    expect(byRequest.json.shares.map((s: any) => s.id)).toEqual([share.id]);
    const other = await newRequest(owner);
    expect((await call('GET', `/api/shares?request=${other.id}`, { token: owner.token })).json.shares).toEqual([]);
    expect((await call('GET', '/api/shares?request=not%20an%20id', { token: owner.token })).status).toBe(400);
    const listed = await call('GET', `/api/shares/${share.id}`, { token: owner.token });
    expect(listed.json.share.received.name).toBe('Dana');
    expect(listed.json.share.user_id).toBe(owner.id);
    expect((await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { status: 'online' } })).status).toBe(200);
    const item = await fetch(`${(await import('./support/file-server')).baseUrl()}${listed.json.share.items[0].url}`);
    expect(await item.text()).toBe('hello from dana');
    // Deleting the request leaves what it received.
    expect((await call('DELETE', `/api/requests/${req.id}`, { token: owner.token })).status).toBe(204);
    expect((await call('GET', `/api/shares/${share.id}`, { token: owner.token })).json.share.received.request_id).toBe(req.id);
  });

  it('an owner\'s own shares carry received: null', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'x.txt': Buffer.from('x') });
    expect(share.received).toBeNull();
  });
});

describe('the upload token', () => {
  it('works for its own group only, never on another route, and only while pending', async () => {
    const owner = await createMember();
    const req = await newRequest(owner);
    const files = { 'a.txt': Buffer.from('aaaa') };
    const mine = await initGuest(req.id, files);
    const theirs = await initGuest(req.id, files);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    const token = mine.json.uploadToken as string;
    const other = theirs.json;
    const f = other.files[0] as InitFile;
    // Another group's calls: refused, whatever the route of the protocol.
    const chunk = await putPart(token, { groupId: other.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, files['a.txt'], 'proxy');
    expect(chunk.status).toBe(404);
    // Its own groupId with the other group's session: refused too.
    const mixed = await putPart(token, { groupId: mine.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, files['a.txt'], 'proxy');
    expect(mixed.status).toBe(404);
    for (const path of ['part-url', 'status', 'complete', 'abort']) {
      const body = path === 'part-url' ? { groupId: other.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 } : path === 'complete' ? { groupId: other.groupId, files: [] } : { groupId: other.groupId };
      const r = await call('POST', `/api/shares/upload/${path}`, { token, body });
      expect([path, r.status, r.json.code]).toEqual([path, 404, 'not_found']);
    }
    // Every other route answers it 401: it is no login.
    for (const [method, path, body] of [
      ['GET', '/api/shares', undefined],
      ['GET', `/api/shares/${mine.json.groupId}`, undefined],
      ['PATCH', `/api/shares/${mine.json.groupId}`, { note: 'x' }],
      ['DELETE', `/api/shares/${mine.json.groupId}`, undefined],
      ['GET', '/api/auth/me', undefined],
      ['GET', '/api/requests', undefined],
      ['POST', '/api/requests', {}],
      ['GET', '/api/shares/upload/capabilities', undefined],
      ['POST', '/api/shares/upload/init', { files: [{ clientPath: 'z', size: 1 }] }],
      ['GET', '/api/tokens', undefined],
    ] as const) {
      const r = await call(method, path, { token, body });
      expect([method, path, r.status]).toEqual([method, path, 401]);
    }
    expect((await call('GET', '/api/auth/check', { token })).json.authenticated).toBe(false);
    // Its own group: status, then the whole upload.
    const status = await call('POST', '/api/shares/upload/status', { token, body: { groupId: mine.json.groupId } });
    expect(status.status, status.text).toBe(200);
    const body = await sendParts(token, mine.json, files);
    expect((await call('POST', '/api/shares/upload/complete', { token, body })).status).toBe(200);
    // Complete: the token is spent.
    for (const path of ['status', 'complete', 'abort']) {
      const r = await call('POST', `/api/shares/upload/${path}`, { token, body: path === 'complete' ? body : { groupId: mine.json.groupId } });
      expect([path, r.status]).toEqual([path, 401]);
    }
    // The other guest's upload is untouched by all this.
    expect((await call('POST', '/api/shares/upload/status', { token: other.uploadToken, body: { groupId: other.groupId } })).status).toBe(200);
    expect((await call('POST', '/api/shares/upload/abort', { token: other.uploadToken, body: { groupId: other.groupId } })).status).toBe(200);
    expect((await call('POST', '/api/shares/upload/status', { token: other.uploadToken, body: { groupId: other.groupId } })).status).toBe(401);
  });
});

describe('limits, at init and again at complete', () => {
  it('refuses too many files, too many bytes, a wrong type, a missing name, with the contract codes', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { max_files: 2, max_bytes: 1000, allowed_types: ['.pdf', 'image/*'], require_name: true });
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const cases: [Files, Record<string, unknown>, number, string][] = [
      [{ 'a.pdf': pdf, 'b.pdf': pdf, 'c.pdf': pdf }, { name: 'D' }, 400, 'too_many_files'],
      [{ 'a.pdf': Buffer.alloc(1001) }, { name: 'D' }, 400, 'too_large'],
      [{ 'a.exe': Buffer.alloc(10) }, { name: 'D' }, 400, 'type_not_allowed'],
      [{ 'a.pdf': pdf }, {}, 400, 'invalid_request'],
      [{ 'a.pdf': pdf }, { name: '   ' }, 400, 'invalid_request'],
    ];
    for (const [files, extra, status, code] of cases) {
      const r = await initGuest(req.id, files, extra);
      expect([Object.keys(files).join(','), r.status, r.json.code]).toEqual([Object.keys(files).join(','), status, code]);
    }
    const ok = await guestUpload(req.id, { 'scan.pdf': pdf, 'photo.png': PNG }, { name: 'D' });
    expect(ok.complete!.status, ok.complete!.text).toBe(200);
    expect(await pendingReserved(owner)).toEqual([]);
  });

  it('a file whose first bytes are another type is refused at complete, and nothing of it is kept', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { allowed_types: ['.pdf'] });
    const files = { 'report.pdf': PNG };
    const init = await initGuest(req.id, files);
    expect(init.status).toBe(201);
    const body = await sendParts(init.json.uploadToken, init.json, files);
    const r = await call('POST', '/api/shares/upload/complete', { token: init.json.uploadToken, body });
    expect([r.status, r.json.code]).toEqual([400, 'type_not_allowed']);
    expect(r.json.error).toMatch(/image\/png/);
    expect(await usedBytes(owner)).toBe(0);
    expect(await pendingReserved(owner)).toEqual([]);
    expect((await call('GET', '/api/shares', { token: owner.token })).json.shares).toEqual([]);
    expect((await call('GET', `/api/requests/${req.id}`, { token: owner.token })).json.request.upload_count).toBe(0);
  });

  it('a limit lowered, a request closed or expired between init and complete refuses the complete', async () => {
    const owner = await createMember();
    const files = { 'a.txt': Buffer.alloc(500, 1) };
    for (const [change, status, code] of [
      [{ max_bytes: 100 }, 400, 'too_large'],
      [{ max_files: 1, allowed_types: ['.pdf'] }, 400, 'type_not_allowed'],
      [{ status: 'closed' }, 404, 'not_found'],
    ] as const) {
      const req = await newRequest(owner);
      const init = await initGuest(req.id, files);
      const body = await sendParts(init.json.uploadToken, init.json, files);
      expect((await call('PATCH', `/api/requests/${req.id}`, { token: owner.token, body: change })).status).toBe(200);
      const r = await call('POST', '/api/shares/upload/complete', { token: init.json.uploadToken, body });
      expect([JSON.stringify(change), r.status, r.json.code]).toEqual([JSON.stringify(change), status, code]);
    }
    expect(await usedBytes(owner)).toBe(0);
    expect(await pendingReserved(owner)).toEqual([]);
  });

  it('an expired request is 410 expired at the page and the init; a full one 410 request_full', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { max_uploads: 1 });
    expect((await guestUpload(req.id, { 'a.txt': Buffer.from('a') })).complete!.status).toBe(200);
    const full = await initGuest(req.id, { 'b.txt': Buffer.from('b') });
    expect([full.status, full.json.code]).toEqual([410, 'request_full']);
    expect((await call('GET', `/r/${req.id}`)).status).toBe(410);
    const soon = await newRequest(owner);
    const at = Date.now() + 1500;
    const set = await call('PATCH', `/api/requests/${soon.id}`, { token: owner.token, body: { expires_at: new Date(at).toISOString() } });
    expect(set.status).toBe(200);
    while (Date.now() <= at) await new Promise((r) => setTimeout(r, at - Date.now() + 5));
    const r = await initGuest(soon.id, { 'a.txt': Buffer.from('a') });
    expect([r.status, r.json.code]).toEqual([410, 'expired']);
    expect((await call('GET', `/r/${soon.id}`)).status).toBe(410);
  });

  it('two racing uploads against max_uploads: 1 — exactly one completes, the other is refused with nothing kept', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { max_uploads: 1 });
    const files = { 'a.bin': Buffer.alloc(2048, 3) };
    const inits = await Promise.all([initGuest(req.id, files), initGuest(req.id, files)]);
    expect(inits.map((i) => i.status)).toEqual([201, 201]);
    const bodies = await Promise.all(inits.map((i) => sendParts(i.json.uploadToken, i.json, files)));
    const results = await Promise.all(inits.map((i, n) => call('POST', '/api/shares/upload/complete', { token: i.json.uploadToken, body: bodies[n] })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    expect(results.find((r) => r.status === 410)!.json.code).toBe('request_full');
    expect((await call('GET', `/api/requests/${req.id}`, { token: owner.token })).json.request).toMatchObject({ upload_count: 1, received_bytes: 2048 });
    expect(await usedBytes(owner)).toBe(2048);
    expect(await pendingReserved(owner)).toEqual([]);
    const shares = (await call('GET', '/api/shares', { token: owner.token })).json.shares;
    expect(shares).toHaveLength(1);
  });

  it("charges the owner's quota, pending uploads included (413 quota_exceeded)", async () => {
    const owner = await createMember({ quota: 10_000 });
    const req = await newRequest(owner);
    expect((await initGuest(req.id, { 'a.bin': Buffer.alloc(6000) })).status).toBe(201);
    const r = await initGuest(req.id, { 'b.bin': Buffer.alloc(6000) });
    expect([r.status, r.json.code]).toEqual([413, 'quota_exceeded']);
  });

  it('bounds unfinished uploads per request (REQUEST_MAX_PENDING) with 429 and Retry-After', async () => {
    const owner = await createMember();
    const req = await newRequest(owner);
    for (let i = 0; i < 3; i++) expect((await initGuest(req.id, { 'a.bin': Buffer.alloc(10) })).status).toBe(201);
    const r = await initGuest(req.id, { 'a.bin': Buffer.alloc(10) });
    expect([r.status, r.json.code]).toEqual([429, 'rate_limited']);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another request of the same owner is not affected.
    expect((await initGuest((await newRequest(owner)).id, { 'a.bin': Buffer.alloc(10) })).status).toBe(201);
  });

  it('rate-limits anonymous inits per address', async () => {
    const req = await newRequest(await createMember(), { max_files: 1 });
    const ip = randomIp();
    const two = { 'a.txt': Buffer.from('a'), 'b.txt': Buffer.from('b') };
    let last;
    for (let i = 0; i < 31; i++) last = await initGuest(req.id, two, {}, { ip });
    expect([last!.status, last!.json.code]).toEqual([429, 'rate_limited']);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another address still gets the request's own answer.
    expect((await initGuest(req.id, two)).json.code).toBe('too_many_files');
  });

  // The request's own init rate counts accepted inits only: tests/security-request-links.test.ts.

  it('a password-protected request: 401 without it, wrong_password when wrong, the unlock cookie or the password lets in', async () => {
    const owner = await createMember();
    const req = await newRequest(owner, { password: 'letmein-42' });
    const files = { 'a.txt': Buffer.from('a') };
    expect((await call('GET', `/r/${req.id}`)).status).toBe(401);
    expect((await initGuest(req.id, files)).status).toBe(401);
    const wrong = await initGuest(req.id, files, { password: 'nope' });
    expect([wrong.status, wrong.json.code]).toEqual([401, 'wrong_password']);
    expect((await initGuest(req.id, files, { password: 'letmein-42' })).status).toBe(201);
    const unlock = await call('POST', `/r/${req.id}/unlock`, { body: { password: 'letmein-42' } });
    expect(unlock.status).toBe(200);
    const cookie = cookieFrom(unlock.cookies, `htmls_request_unlock_${req.id}`);
    expect(unlock.cookies.join(';')).toMatch(new RegExp(`Path=/r/${req.id}`));
    expect((await initGuest(req.id, files, {}, { cookie })).status).toBe(201);
    // Opening and unlocking consumed nothing.
    expect((await call('GET', `/api/requests/${req.id}`, { token: owner.token })).json.request.upload_count).toBe(0);
  });

  it('an unknown or malformed request id is 404 everywhere', async () => {
    for (const id of ['nope', 'a%20b']) {
      expect((await initGuest(id, { 'a.txt': Buffer.from('a') })).status).toBe(404);
      expect((await call('GET', `/r/${id}`)).status).toBe(404);
    }
  });
});

describe('DELETE /api/requests/:id/uploads (issue 39, item 1)', () => {
  it("discards every unfinished guest upload: the quota they held returns, their parts are gone, finished ones stay; audited", async () => {
    const owner = await createMember({ quota: 10_000 });
    const req = await newRequest(owner);
    const done = await guestUpload(req.id, { 'kept.bin': Buffer.alloc(1000, 1) }, { name: 'Finished Fay' });
    expect(done.complete?.status, done.complete?.text).toBe(200);
    // One guest sent a part and stopped; another sent nothing. Together they hold the rest.
    const started = await initGuest(req.id, { 'a.bin': Buffer.alloc(4000) }, { name: 'Dana' });
    expect(started.status, started.text).toBe(201);
    const f = started.json.files[0] as InitFile;
    const part = await putPart(started.json.uploadToken, { groupId: started.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, Buffer.alloc(4000, 2), started.json.mode);
    expect(part.status, part.text).toBe(200);
    const idle = await initGuest(req.id, { 'b.bin': Buffer.alloc(4000) });
    expect(idle.status, idle.text).toBe(201);
    const refused = await initGuest(req.id, { 'c.bin': Buffer.alloc(4000) });
    expect([refused.status, refused.json.code]).toEqual([413, 'quota_exceeded']);

    // Only the owner (or the administrator) may: another member and a guest's token get nothing.
    const stranger = await createMember();
    expect((await call('DELETE', `/api/requests/${req.id}/uploads`, { token: stranger.token })).status).toBe(404);
    expect((await call('DELETE', `/api/requests/${req.id}/uploads`, { token: started.json.uploadToken })).status).toBe(401);
    expect((await call('DELETE', `/api/requests/${req.id}/uploads`)).status).toBe(401);
    expect((await call('DELETE', '/api/requests/nope/uploads', { token: owner.token })).status).toBe(404);

    const discarded = await call('DELETE', `/api/requests/${req.id}/uploads`, { token: owner.token });
    expect(discarded.status, discarded.text).toBe(200);
    expect(discarded.json).toEqual({ discarded: 2 });
    expect(await pendingReserved(owner)).toEqual([]);
    for (const g of [started.json.groupId, idle.json.groupId]) {
      expect(await testStore().listMultipartUploads(`shared/${g}/`)).toEqual([]);
      expect(await testStore().list(`shared/${g}/`)).toEqual([]);
    }
    // The guest's token is spent, the finished upload stays, and the freed room takes a new sender.
    expect((await call('POST', '/api/shares/upload/status', { token: started.json.uploadToken, body: { groupId: started.json.groupId } })).status).toBe(401);
    expect((await call('GET', `/api/shares?request=${req.id}`, { token: owner.token })).json.shares.map((s: any) => s.received?.name)).toEqual(['Finished Fay']);
    expect((await initGuest(req.id, { 'c.bin': Buffer.alloc(4000) })).status).toBe(201);
    // Nothing left to discard is no error; the action is in the audit log.
    expect((await call('DELETE', `/api/requests/${req.id}/uploads`, { token: owner.token })).json).toEqual({ discarded: 1 });
    const audit = await call('GET', '/api/audit?action=request.uploads_discarded', { token: TEST_ADMIN_TOKEN });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.json.entries.some((e: any) => e.target === req.id)).toBe(true);
  });
});
