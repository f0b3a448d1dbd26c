/**
 * Issue 39 (item 1, item 7, Info): a request link must not lock the request and its owner.
 * Guest inits that store nothing once held the owner's quota and pending caps, and the request's
 * pending slots, for a day; refused inits used up the request's rate; an administrator's request
 * had no storage bound; a guest's complete answered the owner's id and name.
 * Runs on the embedded default and on PostgreSQL + S3 (direct parts there).
 */
import { describe, expect, it } from 'vitest';
import { migratedServiceEnv, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { createMember, type Member } from './support/members';
import { putPart, type InitFile } from './support/shares';
import { startInProcess } from './support/in-process';
import { TEST_ADMIN_TOKEN } from './support/server';
import { openStore, testStore } from './support/store';

useFileServer({ MAX_PENDING_UPLOADS: '12', MAX_PENDING_FILES: '40' });

const KiB = 1024;
const MiB = 1024 * KiB;

async function newRequest(owner: Member, body: Record<string, unknown> = {}, base?: string) {
  const r = await call('POST', '/api/requests', { base, token: owner.token, body });
  expect(r.status, r.text).toBe(201);
  return r.json.request as { id: string };
}

/** A guest's init declaring `sizes` (one file each), from an address of its own unless given. */
const initGuest = (id: string, sizes: number[], opts: { ip?: string; base?: string } = {}) =>
  call('POST', `/api/requests/${id}/upload`, {
    base: opts.base,
    ip: opts.ip ?? randomIp(),
    body: { files: sizes.map((size, i) => ({ clientPath: `f${i}.bin`, size })) },
  });

/** The owner's own init. */
const ownInit = (m: Member, sizes: number[], base?: string) =>
  call('POST', '/api/shares/upload/init', { base, token: m.token, body: { files: sizes.map((size, i) => ({ clientPath: `own${i}.bin`, size })) } });

/** Sends every part of a guest's init of one file of `size` bytes (filled with 7s) and completes it. */
async function sendAndComplete(init: any, size: number, base?: string) {
  const files = [];
  for (const f of init.files as InitFile[]) {
    const parts = [];
    for (let n = 1; n <= f.partCount; n++) {
      const part = Math.min(init.partSize, size - (n - 1) * init.partSize);
      const r = await putPart(init.uploadToken, { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: n }, Buffer.alloc(part, 7), init.mode, base);
      expect(r.status, r.text).toBe(200);
      parts.push({ partNumber: n, etag: r.etag });
    }
    files.push({ uploadId: f.uploadId, storageKey: f.storageKey, parts });
  }
  return call('POST', '/api/shares/upload/complete', { base, token: init.uploadToken, body: { groupId: init.groupId, files } });
}

describe('guests reserve against a budget of their own (item 1)', () => {
  it("ten idle guest inits of quota/10 leave the owner's own 1 MiB upload alone", async () => {
    const owner = await createMember({ quota: 50 * MiB });
    const req = await newRequest(owner);
    for (let i = 0; i < 10; i++) expect((await initGuest(req.id, [5 * MiB])).status).toBe(201);
    const own = await ownInit(owner, [MiB]);
    expect(own.status, own.text).toBe(201);
    // Guests never hold more than the owner has: another request's sender finds no room.
    const other = await initGuest((await newRequest(owner)).id, [MiB]);
    expect([other.status, other.json.code]).toEqual([413, 'quota_exceeded']);
  });

  it("a guest's files must fit beside the owner's own uploads at complete: the owner comes first", async () => {
    const owner = await createMember({ quota: 10_000 });
    const req = await newRequest(owner);
    const guest = await initGuest(req.id, [6000]);
    expect(guest.status).toBe(201);
    expect((await ownInit(owner, [6000])).status).toBe(201);
    const done = await sendAndComplete(guest.json, 6000);
    expect([done.status, done.json.code]).toEqual([413, 'quota_exceeded']);
    const me = (await call('GET', '/api/auth/me', { token: owner.token })).json.user;
    expect(me.used_bytes).toBe(0);
    const shares = (await call('GET', `/api/shares?request=${req.id}`, { token: owner.token })).json.shares;
    expect(shares).toEqual([]);
  });

  it("guest uploads never take the owner's MAX_PENDING_UPLOADS / MAX_PENDING_FILES", async () => {
    const owner = await createMember();
    const a = await newRequest(owner);
    const b = await newRequest(owner);
    for (let i = 0; i < 10; i++) expect((await initGuest(a.id, [10])).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await initGuest(b.id, [10])).status).toBe(201);
    // The owner's 12 slots are all still theirs…
    const own = await ownInit(owner, [10]);
    expect(own.status, own.text).toBe(201);
    // …and the guests' own budget (as many again) is full: 429, never the owner's 409.
    const more = await initGuest((await newRequest(owner)).id, [10]);
    expect([more.status, more.json.code]).toEqual([429, 'rate_limited']);
    expect(Number(more.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("guest files never take the owner's MAX_PENDING_FILES", async () => {
    const owner = await createMember();
    const req = await newRequest(owner);
    expect((await initGuest(req.id, Array(41).fill(1))).json.code).toBe('rate_limited');
    expect((await initGuest(req.id, Array(40).fill(1))).status).toBe(201);
    const own = await ownInit(owner, Array(40).fill(1));
    expect(own.status, own.text).toBe(201);
  });
});

describe("a request's init rate (item 1)", () => {
  it('refused inits, from however many addresses, do not rate-limit a fresh sender', async () => {
    const req = await newRequest(await createMember(), { max_files: 1 });
    for (let i = 0; i < 210; i++) expect((await initGuest(req.id, [1, 1])).json.code).toBe('too_many_files');
    const real = await initGuest(req.id, [1]);
    expect(real.status, real.text).toBe(201);
  });

  it('accepted inits count: past 200 in ten minutes the request answers 429', { timeout: 300_000 }, async () => {
    const owner = await createMember();
    const req = await newRequest(owner);
    // Five at a time (the request holds ten unfinished uploads), each discarded by its guest.
    for (let i = 0; i < 200; i += 5) {
      await Promise.all(
        Array.from({ length: 5 }, async () => {
          const r = await initGuest(req.id, [1]);
          expect(r.status, r.text).toBe(201);
          expect((await call('POST', '/api/shares/upload/abort', { token: r.json.uploadToken, body: { groupId: r.json.groupId } })).status).toBe(200);
        }),
      );
    }
    const r = await initGuest(req.id, [1]);
    expect([r.status, r.json.code]).toEqual([429, 'rate_limited']);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('an IPv6 sender is counted per /64: other addresses of that /64 share its budget', async () => {
    const req = await newRequest(await createMember(), { max_files: 1 });
    for (let i = 0; i < 30; i++) await initGuest(req.id, [1, 1], { ip: `2001:db8:7:9::${(i + 1).toString(16)}` });
    const same = await initGuest(req.id, [1], { ip: '2001:db8:7:9:abcd::1' });
    expect([same.status, same.json.code]).toEqual([429, 'rate_limited']);
    expect((await initGuest(req.id, [1], { ip: '2001:db8:7:a::1' })).status).toBe(201);
  });
});

describe("an administrator's file request has a storage bound (item 7)", () => {
  it("guests are never the administrator: the admin's quota applies", async () => {
    const admin = await createMember({ role: 'admin', quota: 10_000 });
    const req = await newRequest(admin);
    for (let i = 0; i < 3; i++) {
      const init = await initGuest(req.id, [3000]);
      expect(init.status, init.text).toBe(201);
      expect((await sendAndComplete(init.json, 3000)).status).toBe(200);
    }
    const fourth = await initGuest(req.id, [3000]);
    expect([fourth.status, fourth.json.code]).toEqual([413, 'quota_exceeded']);
    const huge = await initGuest((await newRequest(admin)).id, [40_000_000_000]);
    expect([huge.status, huge.json.code]).toEqual([413, 'quota_exceeded']);
    // The administrator's own uploads are not bound by it (unchanged).
    expect((await ownInit(admin, [20_000])).status).toBe(201);
  });
});

describe("a guest's complete (Info)", () => {
  it("answers the guest's own upload, not who asked for it", async () => {
    const owner = await createMember();
    const req = await newRequest(owner);
    const init = await initGuest(req.id, [5]);
    const done = await sendAndComplete(init.json, 5);
    expect(done.status, done.text).toBe(200);
    expect(done.json.share).toMatchObject({ user_id: null, username: null, file_count: 1, upload_state: 'complete' });
    expect(done.text).not.toContain(owner.id);
    expect(done.text).not.toContain(owner.username);
    // The owner sees it as theirs.
    const mine = await call('GET', `/api/shares/${done.json.share.id}`, { token: owner.token });
    expect(mine.json.share).toMatchObject({ user_id: owner.id, username: owner.username });
  });
});

describe('a guest upload that stores nothing is gone within minutes (item 1)', () => {
  it('the janitor discards idle guest inits after GUEST_IDLE_UPLOAD_MINUTES and frees the request; a started one stays', { timeout: 120_000 }, async () => {
    const env = await migratedServiceEnv();
    // A service of its own beside the file's (its janitor runs every second, its idle limit is 3 s).
    const server = await startInProcess({ ...env, GUEST_IDLE_UPLOAD_MINUTES: '0.05', JANITOR_INTERVAL_SECONDS: '1', REQUEST_MAX_PENDING: '3' });
    const base = server.url;
    const store = openStore(env, server.dataDir);
    try {
      const username = `idle${Date.now().toString(36)}`;
      expect((await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 2 } })).status).toBe(201);
      const login = await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } });
      const owner = { token: login.json.token } as Member;
      const req = await newRequest(owner, {}, base);
      // A sender that starts at once: its first part marks the upload started.
      const started = await initGuest(req.id, [300], { base });
      expect(started.status, started.text).toBe(201);
      const f = started.json.files[0] as InitFile;
      const part = await putPart(started.json.uploadToken, { groupId: started.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, Buffer.alloc(300, 1), started.json.mode, base);
      expect(part.status, part.text).toBe(200);
      // Two inits that never send anything hold the request's other slots.
      const idle: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await initGuest(req.id, [300], { base });
        expect(r.status, r.text).toBe(201);
        idle.push(r.json.groupId as string);
      }
      expect((await initGuest(req.id, [300], { base })).json.code).toBe('rate_limited');
      // Within the idle limit and a janitor run they are gone, with their multi-part uploads.
      const pending = async () =>
        ((await call('GET', '/api/shares?limit=200', { base, token: owner.token })).json.shares as any[]).filter((s) => s.upload_state === 'pending').map((s) => s.id).sort();
      await expect.poll(pending, { timeout: 60_000, interval: 250 }).toEqual([started.json.groupId]);
      await expect
        .poll(async () => (await store.listMultipartUploads('shared/')).filter((u) => idle.some((g) => u.key.includes(g))), { timeout: 30_000, interval: 250 })
        .toEqual([]);
      // A real sender gets in, and the started upload completes.
      expect((await initGuest(req.id, [300], { base })).status).toBe(201);
      const done = await call('POST', '/api/shares/upload/complete', {
        base,
        token: started.json.uploadToken,
        body: { groupId: started.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: part.etag }] }] },
      });
      expect(done.status, done.text).toBe(200);
    } finally {
      store.close();
      await server.stop();
    }
  });
});

describe("the store's multi-part uploads start at a file's first part (item 1)", () => {
  it('an init starts none; eight racing first parts of one file start exactly one; status, complete and abort cope with files that have none', async () => {
    const owner = await createMember();
    const req = await newRequest(owner);
    const init = await initGuest(req.id, [5, 6, 7]);
    expect(init.status, init.text).toBe(201);
    const { groupId, uploadToken, mode } = init.json;
    const store = testStore();
    const uploads = async () => (await store.listMultipartUploads(`shared/${groupId}/`)).map((u) => u.key);
    // The review's 500-file inits left 500 open uploads each in the bucket: now an init leaves none.
    expect(await uploads()).toEqual([]);
    // Eight first parts of one file at once (retries, parallel part URLs): one store upload.
    const [f, g] = init.json.files as InitFile[];
    const ref = { groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    const sent = await Promise.all(Array.from({ length: 8 }, () => putPart(uploadToken, ref, Buffer.alloc(5, 3), mode)));
    for (const r of sent) expect(r.status, r.text).toBe(200);
    expect(await uploads()).toEqual([f.storageKey]);
    // Status names the stored part, and none for the files not started.
    const status = await call('POST', '/api/shares/upload/status', { token: uploadToken, body: { groupId } });
    expect(status.status, status.text).toBe(200);
    expect(status.json.files.map((x: any) => [x.relativePath, x.parts.length])).toEqual([
      ['f0.bin', 1],
      ['f1.bin', 0],
      ['f2.bin', 0],
    ]);
    // A complete naming a file that never started is refused as incomplete, not a fault.
    const early = await call('POST', '/api/shares/upload/complete', {
      token: uploadToken,
      body: {
        groupId,
        files: (init.json.files as InitFile[]).map((x) => ({ uploadId: x.uploadId, storageKey: x.storageKey, parts: [{ partNumber: 1, etag: sent[0].etag }] })),
      },
    });
    expect(early.status, early.text).toBe(409);
    expect(early.json.code).toBe('upload_not_complete');
    // A second file's first part starts its own; the abort removes both, and the never-started third is no error.
    expect((await putPart(uploadToken, { groupId, uploadId: g.uploadId, storageKey: g.storageKey, partNumber: 1 }, Buffer.alloc(6, 4), mode)).status).toBe(200);
    expect((await uploads()).sort()).toEqual([f.storageKey, g.storageKey].sort());
    const abort = await call('POST', '/api/shares/upload/abort', { token: uploadToken, body: { groupId } });
    expect(abort.status, abort.text).toBe(200);
    expect(await uploads()).toEqual([]);
    expect(await store.list(`shared/${groupId}/`)).toEqual([]);
    // A part after the abort starts nothing.
    const late = await putPart(uploadToken, { groupId, uploadId: init.json.files[2].uploadId, storageKey: init.json.files[2].storageKey, partNumber: 1 }, Buffer.alloc(7, 5), mode);
    expect(late.status).not.toBe(200);
    expect(await uploads()).toEqual([]);
  });
});
