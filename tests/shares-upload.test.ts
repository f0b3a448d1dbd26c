import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { createMember, registerMember } from './support/members';
import { putPart, uploadShare, type InitFile } from './support/shares';
import { listStoredKeys, testStore } from './support/store';

useFileServer();

const initWith = (token: string, files: unknown[]) => call('POST', '/api/shares/upload/init', { token, body: { files } });
const MiB = 1024 * 1024;

async function caps(token: string) {
  const r = await call('GET', '/api/shares/upload/capabilities', { token });
  expect(r.status).toBe(200);
  return r.json as { mode: 'direct' | 'proxy'; partSize: number; parallel: number };
}

async function usedBytes(token: string): Promise<number> {
  return (await call('GET', '/api/auth/me', { token })).json.user.used_bytes;
}

async function nothingStored(groupId: string) {
  expect(await listStoredKeys(`shared/${groupId}/`)).toEqual([]);
  expect(await testStore().listMultipartUploads(`shared/${groupId}/`)).toEqual([]);
}

describe('GET /api/shares/upload/capabilities', () => {
  it('names the mode with its part size and parallelism, and the limits', async () => {
    const m = await registerMember();
    const c = await call('GET', '/api/shares/upload/capabilities', { token: m.token });
    expect(c.status).toBe(200);
    // Proxy on both of the suite's stores: fs cannot presign, and radosgw fails the copy probe
    // (tests/security-direct-mode.test.ts runs direct mode on a store that passes it).
    const expected = { mode: 'proxy', partSize: 50_331_648, parallel: 1 };
    // This machine has ffmpeg (the suite makes a video with it): the server makes videos' posters.
    expect(c.json).toEqual({ ...expected, maxRetries: 4, maxFiles: 500, maxTotalBytes: 53_687_091_200, videoPosters: 'server' });
    expect((await call('GET', '/api/shares/upload/capabilities')).status).toBe(401);
  });
});

describe('share upload', () => {
  it('uploads several files in folders, one spanning several parts, and serves them back', async () => {
    const m = await createMember({ quota: 1024 ** 3 });
    const { partSize, mode } = await caps(m.token);
    const big = randomBytes(partSize + 123_457);
    const files = {
      'holiday/clip.mp4': big,
      'holiday/notes/readme.txt': Buffer.from('hello'),
      'empty.txt': Buffer.alloc(0),
    };
    const { init, complete, share } = await uploadShare(m.token, files, { note: 'Trip' });
    expect(init.status).toBe(201);
    expect(init.json.mode).toBe(mode);
    const clip = (init.json.files as InitFile[]).find((f) => f.clientPath === 'holiday/clip.mp4')!;
    expect(clip.partCount).toBe(2);
    expect(clip.storageKey).toBe(`shared/${init.json.groupId}/holiday/clip.mp4`);
    expect(complete!.status).toBe(200);
    expect(share).toMatchObject({
      id: init.json.groupId,
      note: 'Trip',
      status: 'online',
      upload_state: 'complete',
      has_password: false,
      user_id: m.id,
      username: m.username,
      file_count: 3,
      total_bytes: big.length + 5,
      url: `/f/${init.json.groupId}`,
    });
    expect(share.items.map((i: { relative_path: string }) => i.relative_path)).toEqual([
      'empty.txt',
      'holiday/clip.mp4',
      'holiday/notes/readme.txt',
    ]);
    expect(await usedBytes(m.token)).toBe(big.length + 5);
    const got = await fetch(baseUrl() + share.items[1].url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(big)).toBe(true);
    const empty = await fetch(baseUrl() + share.items[0].url);
    expect(empty.status).toBe(200);
    expect((await empty.arrayBuffer()).byteLength).toBe(0);
    // No pending session is left: the upload cannot be completed, resumed or aborted again.
    const again = await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: share.id } });
    expect(again.status).toBe(409);
  });

  it('PUTs a full 48 MB proxy part through the running server (no framework body limit on /api)', async () => {
    const m = await createMember({ quota: 1024 ** 3 });
    const data = randomBytes(50_331_648);
    const init = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'p.bin', size: data.length }] } });
    expect(init.status).toBe(201);
    const f = init.json.files[0];
    const r = await putPart(m.token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, data, 'proxy');
    expect(r.status).toBe(200);
    expect(r.etag).toMatch(/^".+"$/);
    expect((await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } })).status).toBe(200);
  });

  it('re-sending a part replaces the earlier one', async () => {
    const m = await createMember();
    const init = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'a.txt', size: 4 }] } });
    const f = init.json.files[0];
    const ref = { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    await putPart(m.token, ref, Buffer.from('AAAA'), init.json.mode);
    const second = await putPart(m.token, ref, Buffer.from('BBBB'), init.json.mode);
    const c = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: { groupId: ref.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: second.etag }] }] },
    });
    expect(c.status).toBe(200);
    expect(await (await fetch(baseUrl() + c.json.share.items[0].url)).text()).toBe('BBBB');
  });

  it('answers a second complete with 409 already_completed', async () => {
    const m = await createMember();
    const files = { 'x.txt': Buffer.from('x') };
    const { init, share } = await uploadShare(m.token, files);
    expect(share).not.toBeNull();
    const f = init.json.files[0];
    const again = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: 'x' }] }] },
    });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('already_completed');
    expect(await usedBytes(m.token)).toBe(1);
  });

  it('POST /api/shares/upload/complete — parallel completes of one group: one 200, the others 409 already_completed', async () => {
    const m = await createMember();
    for (let round = 0; round < 3; round++) {
      const data = { 'a.txt': Buffer.from('first file'), 'b/c.txt': Buffer.from('second file') };
      const { init } = await uploadShare(m.token, data, { noComplete: true });
      const status = await call('POST', '/api/shares/upload/status', { token: m.token, body: { groupId: init.json.groupId } });
      const body = {
        groupId: init.json.groupId,
        files: status.json.files.map((f: InitFile & { parts: { partNumber: number; etag: string }[] }) => ({
          uploadId: f.uploadId,
          storageKey: f.storageKey,
          parts: f.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
        })),
      };
      const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/api/shares/upload/complete', { token: m.token, body })));
      const seen = results.map((r) => `${r.status} ${r.json?.code ?? ''}`.trim()).sort();
      expect(seen).toEqual(['200', '409 already_completed', '409 already_completed', '409 already_completed', '409 already_completed']);
      const share = results.find((r) => r.status === 200)!.json.share;
      expect(await (await fetch(`${baseUrl()}${share.url}/b/c.txt`)).text()).toBe('second file');
    }
    expect(await usedBytes(m.token)).toBe(3 * 21);
  });

  it('refuses complete while parts are missing (409), leaving the upload resumable', async () => {
    const m = await createMember();
    const init = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'a.txt', size: 3 }, { clientPath: 'b.txt', size: 3 }] } });
    const [a, b] = init.json.files as InitFile[];
    const groupId = init.json.groupId;
    const pa = await putPart(m.token, { groupId, uploadId: a.uploadId, storageKey: a.storageKey, partNumber: 1 }, Buffer.from('aaa'), init.json.mode);
    const onlyA = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: { groupId, files: [{ uploadId: a.uploadId, storageKey: a.storageKey, parts: [{ partNumber: 1, etag: pa.etag }] }] },
    });
    expect(onlyA.status).toBe(409);
    expect(onlyA.json.code).toBe('upload_not_complete');
    const notUploaded = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: {
        groupId,
        files: [
          { uploadId: a.uploadId, storageKey: a.storageKey, parts: [{ partNumber: 1, etag: pa.etag }] },
          { uploadId: b.uploadId, storageKey: b.storageKey, parts: [{ partNumber: 1, etag: '"x"' }] },
        ],
      },
    });
    expect(notUploaded.status).toBe(409);
    const status = await call('POST', '/api/shares/upload/status', { token: m.token, body: { groupId } });
    expect(status.status).toBe(200);
    const parts = Object.fromEntries(status.json.files.map((f: { clientPath: string; parts: unknown[] }) => [f.clientPath, f.parts.length]));
    expect(parts).toEqual({ 'a.txt': 1, 'b.txt': 0 });
    const pb = await putPart(m.token, { groupId, uploadId: b.uploadId, storageKey: b.storageKey, partNumber: 1 }, Buffer.from('bbb'), init.json.mode);
    const done = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: {
        groupId,
        files: [
          { uploadId: a.uploadId, storageKey: a.storageKey, parts: [{ partNumber: 1, etag: pa.etag }] },
          { uploadId: b.uploadId, storageKey: b.storageKey, parts: [{ partNumber: 1, etag: pb.etag }] },
        ],
      },
    });
    expect(done.status).toBe(200);
  });
});

describe('share upload limits', () => {

  it('refuses 501 files, 50 GB + 1 byte, duplicate paths after sanitizing and bad paths — storing nothing', async () => {
    const m = await createMember({ quota: 2 ** 50 });
    const many = Array.from({ length: 501 }, (_, i) => ({ clientPath: `f${i}.txt`, size: 1 }));
    const r501 = await initWith(m.token, many);
    expect([r501.status, r501.json.code]).toEqual([400, 'too_many_files']);
    const r500 = await initWith(m.token, many.slice(0, 500));
    expect(r500.status).toBe(201);
    await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: r500.json.groupId } });
    const huge = await initWith(m.token, [{ clientPath: 'a.bin', size: 50 * 1024 ** 3 }, { clientPath: 'b.bin', size: 1 }]);
    expect([huge.status, huge.json.code]).toEqual([400, 'too_large']);
    const dupCase = await initWith(m.token, [{ clientPath: 'a/Photo.JPG', size: 1 }, { clientPath: 'a/photo.jpg', size: 1 }]);
    expect([dupCase.status, dupCase.json.code]).toEqual([400, 'duplicate_path']);
    const dupNfd = await initWith(m.token, [{ clientPath: 'caf\u00e9.txt', size: 1 }, { clientPath: 'cafe\u0301.txt', size: 1 }]);
    expect([dupNfd.status, dupNfd.json.code]).toEqual([400, 'duplicate_path']);
    for (const bad of ['../x.txt', '/abs.txt', 'a/../../b', 'nul\u0000.txt', 'bidi\u202e.txt', 'CON.txt', 'a//b.txt']) {
      const r = await initWith(m.token, [{ clientPath: bad, size: 1 }]);
      expect([r.status, r.json.code], bad).toEqual([400, 'invalid_path']);
    }
    const wrongType = await initWith(m.token, [{ clientPath: 'a.txt', size: '1' }]);
    expect(wrongType.status).toBe(400);
    const negative = await initWith(m.token, [{ clientPath: 'a.txt', size: -1 }]);
    expect(negative.status).toBe(400);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toHaveLength(0);
  });

  it('answers 413 quota_exceeded when used + reserved + this upload passes the quota', async () => {
    const m = await createMember({ quota: 3000 });
    const over = await initWith(m.token, [{ clientPath: 'a.bin', size: 3001 }]);
    expect([over.status, over.json.code]).toEqual([413, 'quota_exceeded']);
    const { share } = await uploadShare(m.token, { 'a.bin': randomBytes(1800) });
    expect(share).not.toBeNull();
    const pending = await initWith(m.token, [{ clientPath: 'b.bin', size: 1100 }]);
    expect(pending.status).toBe(201); // 1800 used + 1100 reserved
    const third = await initWith(m.token, [{ clientPath: 'c.bin', size: 101 }]);
    expect(third.status).toBe(413); // 1800 + 1100 + 1024 (a small file reserves 1 KiB) > 3000
    await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: pending.json.groupId } });
    expect((await initWith(m.token, [{ clientPath: 'c.bin', size: 1200 }])).status).toBe(201);
  });

  it('POST /api/shares/upload/init — a quota refusal says the sizes in human units and what unfinished uploads hold', async () => {
    const m = await createMember({ quota: 10 * MiB });
    const first = await initWith(m.token, [{ clientPath: 'held.bin', size: 4 * MiB }]);
    expect(first.status).toBe(201);
    const over = await initWith(m.token, [{ clientPath: 'big.bin', size: 7 * MiB }]);
    expect([over.status, over.json.code]).toEqual([413, 'quota_exceeded']);
    expect(over.json.error).toBe('This upload needs 7.0 MB but only 6.0 MB of your quota is free. 4.0 MB is held by an unfinished upload: resume or discard it to free it.');
    // Discarding releases the reservation at once.
    expect((await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: first.json.groupId } })).status).toBe(200);
    expect((await initWith(m.token, [{ clientPath: 'big.bin', size: 7 * MiB }])).status).toBe(201);
  });

  it('ten parallel inits against one quota admit exactly the ones that fit', async () => {
    const m = await createMember({ quota: 10 * MiB });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => initWith(m.token, [{ clientPath: `f${i}.bin`, size: 3 * MiB }])),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 413)).toHaveLength(7);
  });

  it('refuses a part above the part size with 413 and a part of the wrong size with 400', async () => {
    const m = await createMember({ quota: 1024 ** 3 });
    const { partSize } = await caps(m.token);
    const init = await initWith(m.token, [{ clientPath: 'a.bin', size: partSize * 2 }]);
    const f = init.json.files[0];
    const q = new URLSearchParams({ groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: '1' });
    // Announce one byte more than a part, send a little, and read the early answer.
    const early = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`/api/shares/upload/chunk?${q}`, baseUrl());
      const req = http.request(url, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${m.token}`, 'Content-Length': String(partSize + 1), 'X-Forwarded-For': randomIp() },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(early.status).toBe(413);
    expect(JSON.parse(early.body).code).toBe('part_too_large');
    const short = await call('PUT', `/api/shares/upload/chunk?${q}`, { token: m.token, raw: new Uint8Array(10) });
    expect([short.status, short.json.code]).toEqual([400, 'size_mismatch']);
    const badNumber = new URLSearchParams({ ...Object.fromEntries(q), partNumber: '3' });
    expect((await call('PUT', `/api/shares/upload/chunk?${badNumber}`, { token: m.token, raw: new Uint8Array(10) })).status).toBe(400);
    expect((await call('PUT', `/api/shares/upload/chunk?${q}`, { raw: new Uint8Array(10) })).status).toBe(401);
    await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } });
  });

  it('answers 404 for upload ids of another member, another group or made up', async () => {
    const a = await createMember();
    const b = await createMember();
    const ia = await initWith(a.token, [{ clientPath: 'a.txt', size: 1 }]);
    const ib = await initWith(b.token, [{ clientPath: 'b.txt', size: 1 }]);
    const fa = ia.json.files[0];
    const fb = ib.json.files[0];
    const mode = ia.json.mode;
    const tries = [
      { token: b.token, ref: { groupId: ia.json.groupId, uploadId: fa.uploadId, storageKey: fa.storageKey, partNumber: 1 } },
      { token: a.token, ref: { groupId: ia.json.groupId, uploadId: fb.uploadId, storageKey: fb.storageKey, partNumber: 1 } },
      { token: a.token, ref: { groupId: ia.json.groupId, uploadId: 'made-up', storageKey: fa.storageKey, partNumber: 1 } },
      { token: a.token, ref: { groupId: ia.json.groupId, uploadId: fa.uploadId, storageKey: `shared/${ia.json.groupId}/other.txt`, partNumber: 1 } },
    ];
    for (const t of tries) {
      const r = await putPart(t.token, t.ref, Buffer.from('x'), mode);
      expect(r.status, JSON.stringify(t.ref)).toBe(404);
    }
    const foreignComplete = await call('POST', '/api/shares/upload/complete', {
      token: b.token,
      body: { groupId: ia.json.groupId, files: [{ uploadId: fa.uploadId, storageKey: fa.storageKey, parts: [{ partNumber: 1 }] }] },
    });
    expect(foreignComplete.status).toBe(404);
    expect((await call('POST', '/api/shares/upload/abort', { token: b.token, body: { groupId: ia.json.groupId } })).status).toBe(404);
    expect((await call('POST', '/api/shares/upload/abort', { token: a.token, body: { groupId: ia.json.groupId } })).status).toBe(200);
    expect((await call('POST', '/api/shares/upload/abort', { token: b.token, body: { groupId: ib.json.groupId } })).status).toBe(200);
  });
});

describe('abort', () => {
  it('removes the parts, the records and the reservation', async () => {
    const m = await createMember({ quota: 10 * MiB });
    const init = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'v/a.bin', size: 10 * MiB }] } });
    expect(init.status).toBe(201);
    const f = init.json.files[0];
    const piece = randomBytes(Math.min(10 * MiB, init.json.partSize));
    await putPart(m.token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, piece, init.json.mode);
    const list = await call('GET', '/api/shares', { token: m.token });
    expect(list.json.shares[0]).toMatchObject({ id: init.json.groupId, status: 'offline', upload_state: 'pending' });
    const r = await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true });
    await nothingStored(init.json.groupId);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toHaveLength(0);
    expect(await usedBytes(m.token)).toBe(0);
    // The whole quota is free again.
    const again = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'a.bin', size: 10 * MiB }] } });
    expect(again.status).toBe(201);
    expect((await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } })).status).toBe(404);
  });

  it('a declared size that differs from the stored bytes is a 400 and the upload is aborted', async () => {
    const m = await createMember();
    const init = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'a.bin', size: 100 }] } });
    const f = init.json.files[0];
    if (init.json.mode === 'proxy') {
      // The proxy checks each part's size on arrival; the complete-time check is for direct PUTs.
      const r = await putPart(m.token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, Buffer.alloc(50), 'proxy');
      expect(r.status).toBe(400);
      await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } });
      return;
    }
    const p = await putPart(m.token, { groupId: init.json.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, Buffer.alloc(50), 'direct');
    expect(p.status).toBe(200);
    const c = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: p.etag }] }] },
    });
    expect([c.status, c.json.code]).toEqual([400, 'size_mismatch']);
    await nothingStored(init.json.groupId);
    expect(await usedBytes(m.token)).toBe(0);
  });

  it('abort racing complete has exactly one winner', async () => {
    const m = await createMember();
    for (let round = 0; round < 3; round++) {
      const { init } = await uploadShare(m.token, { 'r.txt': Buffer.from('race') }, { noComplete: true });
      const f = init.json.files[0];
      const status = await call('POST', '/api/shares/upload/status', { token: m.token, body: { groupId: init.json.groupId } });
      const etag = status.json.files[0].parts[0].etag;
      const [c, a] = await Promise.all([
        call('POST', '/api/shares/upload/complete', {
          token: m.token,
          body: { groupId: init.json.groupId, files: [{ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag }] }] },
        }),
        call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } }),
      ]);
      const wins = [c.status === 200, a.status === 200].filter(Boolean).length;
      expect(wins, `complete ${c.status} ${c.text} / abort ${a.status} ${a.text}`).toBe(1);
      const shares = (await call('GET', '/api/shares', { token: m.token })).json.shares.filter((s: { id: string }) => s.id === init.json.groupId);
      if (c.status === 200) {
        expect(shares).toHaveLength(1);
        expect(await (await fetch(`${baseUrl()}/f/${init.json.groupId}/r.txt`)).text()).toBe('race');
      } else {
        expect(shares).toHaveLength(0);
        await nothingStored(init.json.groupId);
      }
    }
  });
  it('abort racing complete never answers 500, round after round (issue 22, item 9)', async () => {
    // On the fs store the abort's sweep could remove the upload's folder while complete was
    // merging it: a raw ENOENT became a 500 in 4 of 7 runs. The loser answers 404 or 409.
    const m = await createMember();
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.txt`, Buffer.from(`race ${i}`)]));
    for (let round = 0; round < 12; round++) {
      const { init } = await uploadShare(m.token, files, { noComplete: true });
      const status = await call('POST', '/api/shares/upload/status', { token: m.token, body: { groupId: init.json.groupId } });
      const etags = new Map(status.json.files.map((f: { uploadId: string; parts: { etag: string }[] }) => [f.uploadId, f.parts[0].etag]));
      const body = {
        groupId: init.json.groupId,
        files: (init.json.files as InitFile[]).map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: etags.get(f.uploadId) }] })),
      };
      const [c, a] = await Promise.all([
        call('POST', '/api/shares/upload/complete', { token: m.token, body }),
        call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: init.json.groupId } }),
      ]);
      expect([c.status, a.status].filter((s) => s === 200), `complete ${c.status} ${c.text} / abort ${a.status} ${a.text}`).toHaveLength(1);
      expect([200, 404, 409]).toContain(c.status);
      expect([200, 404, 409]).toContain(a.status);
    }
  });
});

describe('the administrator', () => {
  it("POST /api/shares/upload/abort — the administrator aborts a member's pending upload; the member's reservation is freed at once", async () => {
    const m = await createMember({ quota: 10 * MiB });
    const other = await createMember();
    const { init } = await uploadShare(m.token, { 'a.bin': randomBytes(4 * MiB) }, { noComplete: true });
    const groupId = init.json.groupId;
    // Another member cannot see it, let alone abort it.
    expect((await call('POST', '/api/shares/upload/abort', { token: other.token, body: { groupId } })).status).toBe(404);
    expect((await initWith(m.token, [{ clientPath: 'b.bin', size: 7 * MiB }])).status).toBe(413);
    const r = await call('POST', '/api/shares/upload/abort', { token: TEST_ADMIN_TOKEN, body: { groupId } });
    expect([r.status, r.json]).toEqual([200, { ok: true }]);
    await nothingStored(groupId);
    expect((await call('GET', '/api/shares', { token: m.token })).json.shares).toEqual([]);
    expect((await initWith(m.token, [{ clientPath: 'b.bin', size: 7 * MiB }])).status).toBe(201);
    // A user with the admin role has the same right.
    const boss = await createMember({ role: 'admin' });
    const { init: second } = await uploadShare(m.token, { 'c.bin': Buffer.from('c') }, { noComplete: true });
    expect((await call('POST', '/api/shares/upload/abort', { token: boss.token, body: { groupId: second.json.groupId } })).status).toBe(200);
  });

  it('uploads with the Admin Token outside any quota', async () => {
    const { share } = await uploadShare(TEST_ADMIN_TOKEN, { 'admin.txt': Buffer.from('from the admin') });
    expect(share).toMatchObject({ user_id: null, username: null, file_count: 1 });
  });
});
