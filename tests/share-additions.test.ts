import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { createMember, type Member } from './support/members';
import { uploadShare } from './support/shares';
import { listStoredKeys } from './support/store';

useFileServer();

/** Shares that grow (issue 24, item 5): files added to a published share, single files removed. */

const guest = (id: string, path = '') => fetch(`${baseUrl()}/f/${id}/${path}`);
const me = async (m: Member) => (await call('GET', '/api/auth/me', { token: m.token })).json.user;
const addFiles = (m: Member, shareId: string, files: Record<string, Buffer>, opts: { noComplete?: boolean } = {}) =>
  uploadShare(m.token, files, { shareId, ...opts });

/** The names in the share's "Download all" ZIP, as unzip lists them. */
async function zipNames(id: string): Promise<string[]> {
  const res = await guest(id, '?zip');
  expect(res.status).toBe(200);
  const file = join(mkdtempSync(join(tmpdir(), 'share-add-')), 'all.zip');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  // Asynchronous: the server runs in this process (a synchronous child would block it).
  return (await promisify(execFile)('unzip', ['-Z1', file])).stdout.trim().split('\n').sort();
}

describe('adding files to a published share', () => {
  it('guests keep the old set until the addition completes, then see every file; counts, usage, list and ZIP follow', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('aaa') }, { note: 'grows' });
    const added = await addFiles(m, share.id, { 'b.txt': Buffer.from('bbbb'), 'more/c.txt': Buffer.from('cc') }, { noComplete: true });
    expect(added.init.status).toBe(201);
    const additionId = added.init.json.groupId as string;
    expect(additionId).not.toBe(share.id);
    // Every part is stored, the addition is not complete: guests see the share as it was.
    expect((await guest(share.id, 'b.txt')).status).toBe(404);
    expect(await zipNames(share.id)).toEqual(['a.txt']);
    const listed = (await call('GET', '/api/shares', { token: m.token })).json.shares;
    expect(listed.map((s: { id: string }) => s.id)).toEqual([share.id]);
    expect((await call('GET', `/api/shares/${additionId}`, { token: m.token })).status).toBe(404);

    const files = (added.init.json.files as { uploadId: string; storageKey: string }[]).map((f) => ({ ...f, parts: [{ partNumber: 1 }] }));
    const done = await call('POST', '/api/shares/upload/complete', { token: m.token, body: { groupId: additionId, files } });
    expect(done.status).toBe(200);
    expect(done.json.share).toMatchObject({ id: share.id, note: 'grows', status: 'online', file_count: 3, total_bytes: 9 });
    expect(done.json.share.items.map((i: { relative_path: string }) => i.relative_path)).toEqual(['a.txt', 'b.txt', 'more/c.txt']);
    expect(await (await guest(share.id, 'b.txt')).text()).toBe('bbbb');
    expect(await zipNames(share.id)).toEqual(['a.txt', 'b.txt', 'more/', 'more/c.txt']);
    expect((await me(m)).used_bytes).toBe(9);
    const again = await call('POST', '/api/shares/upload/complete', { token: m.token, body: { groupId: additionId, files } });
    expect([again.status, again.json.code]).toEqual([409, 'already_completed']);
    const [entry] = (await call('GET', '/api/shares', { token: m.token })).json.shares;
    expect(entry).toMatchObject({ id: share.id, file_count: 3, total_bytes: 9 });
    // Deleting the share takes the added files' objects too.
    expect((await call('DELETE', `/api/shares/${share.id}`, { token: m.token })).status).toBe(204);
    expect(await listStoredKeys(`shared/${share.id}/`)).toEqual([]);
    expect((await me(m)).used_bytes).toBe(0);
  });

  it('applies the limits to the share as a whole: 500 files, 50 GB, unique paths, the quota', async () => {
    const m = await createMember({ quota: 10_000 });
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('a'), 'Docs/Plan.pdf': Buffer.from('pdf') });
    const init = (files: { clientPath: string; size: number }[]) =>
      call('POST', '/api/shares/upload/init', { token: m.token, body: { share_id: share.id, files } });
    const full = await init(Array.from({ length: 499 }, (_, i) => ({ clientPath: `n${i}.txt`, size: 1 })));
    expect([full.status, full.json.code]).toEqual([400, 'too_many_files']);
    expect(full.json.error).toMatch(/this one has 2 and 499 would be added/);
    const big = await init([{ clientPath: 'big.bin', size: 50 * 1024 ** 3 }]);
    expect([big.status, big.json.code]).toEqual([400, 'too_large']);
    // The same path up to case and Unicode normalisation.
    const dup = await init([{ clientPath: 'docs/plan.PDF', size: 1 }]);
    expect([dup.status, dup.json.code]).toEqual([400, 'duplicate_path']);
    expect(dup.json.error).toContain('Docs/Plan.pdf');
    const quota = await init([{ clientPath: 'q.bin', size: 20_000 }]);
    expect([quota.status, quota.json.code]).toEqual([413, 'quota_exceeded']);
    // Nothing was reserved or stored by the refusals.
    expect((await me(m)).used_bytes).toBe(4);
    expect(await listStoredKeys(`shared/${share.id}/`)).toHaveLength(2);
  });

  it('two additions of the same path: the first completes, the second is refused at complete and leaves nothing', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('a') });
    const one = await addFiles(m, share.id, { 'x.txt': Buffer.from('first') }, { noComplete: true });
    const two = await addFiles(m, share.id, { 'x.txt': Buffer.from('second!') }, { noComplete: true });
    const complete = (init: typeof one.init) =>
      call('POST', '/api/shares/upload/complete', {
        token: m.token,
        body: { groupId: init.json.groupId, files: init.json.files.map((f: { uploadId: string; storageKey: string }) => ({ ...f, parts: [{ partNumber: 1 }] })) },
      });
    expect((await complete(one.init)).status).toBe(200);
    const refused = await complete(two.init);
    expect([refused.status, refused.json.code]).toEqual([400, 'duplicate_path']);
    expect(await (await guest(share.id, 'x.txt')).text()).toBe('first');
    expect((await me(m)).used_bytes).toBe(6);
    expect(await listStoredKeys(`shared/${share.id}/+${two.init.json.groupId}/`)).toEqual([]);
    // Its reservation is gone: a status of the refused addition is a 404.
    expect((await call('POST', '/api/shares/upload/status', { token: m.token, body: { groupId: two.init.json.groupId } })).status).toBe(404);
  });

  it('an aborted addition leaves the share and the usage as they were; deleting the share cancels a pending addition', async () => {
    const m = await createMember();
    const { share } = await uploadShare(m.token, { 'a.txt': Buffer.from('aa') });
    const pending = await addFiles(m, share.id, { 'b.txt': Buffer.from('bb') }, { noComplete: true });
    expect((await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: pending.init.json.groupId } })).status).toBe(200);
    expect(await listStoredKeys(`shared/${share.id}/`)).toHaveLength(1);
    expect((await call('GET', `/api/shares/${share.id}`, { token: m.token })).json.share.file_count).toBe(1);

    const orphan = await addFiles(m, share.id, { 'c.txt': Buffer.from('cc') }, { noComplete: true });
    expect((await call('DELETE', `/api/shares/${share.id}`, { token: m.token })).status).toBe(204);
    const late = await call('POST', '/api/shares/upload/complete', {
      token: m.token,
      body: { groupId: orphan.init.json.groupId, files: orphan.init.json.files.map((f: { uploadId: string; storageKey: string }) => ({ ...f, parts: [{ partNumber: 1 }] })) },
    });
    expect(late.status).toBe(404);
    expect(await listStoredKeys(`shared/${share.id}/`)).toEqual([]);
    expect((await me(m)).used_bytes).toBe(0);
    // The reservation went with it: a new upload of the whole quota is not held back.
    const u = await me(m);
    const next = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath: 'all.bin', size: u.quota_bytes }] } });
    expect(next.status).toBe(201);
    await call('POST', '/api/shares/upload/abort', { token: m.token, body: { groupId: next.json.groupId } });
  });

  it('refuses another member’s share (404), a share still uploading (409) and share settings beside share_id (400)', async () => {
    const a = await createMember();
    const b = await createMember();
    const { share } = await uploadShare(a.token, { 'a.txt': Buffer.from('a') });
    const files = [{ clientPath: 'b.txt', size: 1 }];
    expect((await call('POST', '/api/shares/upload/init', { token: b.token, body: { share_id: share.id, files } })).status).toBe(404);
    const pending = await uploadShare(a.token, { 'p.txt': Buffer.from('p') }, { noComplete: true });
    const onPending = await call('POST', '/api/shares/upload/init', { token: a.token, body: { share_id: pending.init.json.groupId, files } });
    expect([onPending.status, onPending.json.code]).toEqual([409, 'upload_not_complete']);
    const withNote = await call('POST', '/api/shares/upload/init', { token: a.token, body: { share_id: share.id, note: 'x', files } });
    expect([withNote.status, withNote.json.code]).toEqual([400, 'invalid_request']);
    expect(withNote.json.error).toMatch(/PATCH/);
  });
});

describe('DELETE /api/shares/:id/items?path=', () => {
  it('removes one file: guests lose it at once, its bytes go, usage shrinks; never the only file, never another member’s', async () => {
    const m = await createMember();
    const other = await createMember();
    const { share } = await uploadShare(m.token, { 'keep.txt': Buffer.from('keep'), 'dir/drop me.txt': Buffer.from('dropped') });
    expect(await (await guest(share.id, 'dir/drop%20me.txt')).text()).toBe('dropped');
    const url = (p: string) => `/api/shares/${share.id}/items?${new URLSearchParams({ path: p })}`;
    expect((await call('DELETE', url('dir/drop me.txt'), { token: other.token })).status).toBe(404);
    expect((await call('DELETE', url('nothing.txt'), { token: m.token })).status).toBe(404);
    expect((await call('DELETE', `/api/shares/${share.id}/items`, { token: m.token })).status).toBe(400);
    expect((await call('DELETE', url('dir/drop me.txt'), { token: m.token })).status).toBe(204);
    expect((await guest(share.id, 'dir/drop%20me.txt')).status).toBe(404);
    expect(await zipNames(share.id)).toEqual(['keep.txt']);
    expect((await me(m)).used_bytes).toBe(4);
    expect(await listStoredKeys(`shared/${share.id}/`)).toEqual([`shared/${share.id}/keep.txt`]);
    const got = (await call('GET', `/api/shares/${share.id}`, { token: m.token })).json.share;
    expect(got).toMatchObject({ file_count: 1, total_bytes: 4 });
    const last = await call('DELETE', url('keep.txt'), { token: m.token });
    expect([last.status, last.json.code]).toEqual([409, 'conflict']);
    // A removed path can be added again, and the new file is served.
    const re = await addFiles(m, share.id, { 'dir/drop me.txt': Buffer.from('back again') });
    expect(re.complete?.status).toBe(200);
    expect(await (await guest(share.id, 'dir/drop%20me.txt')).text()).toBe('back again');
  });
});
