import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, dataDir, serverEnv, useFileServer } from './support/file-server';
import { call } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { putPart, uploadShare } from './support/shares';
import { openStore } from './support/store';
import type { StorageDriver } from '@/lib/storage/types';

// A server of its own: uploads expire after 3.6 s and the janitor runs every second, and
// uploads always go through the server (UPLOAD_MODE=proxy), even on S3.
useFileServer({ PENDING_UPLOAD_TTL_HOURS: '0.001', JANITOR_INTERVAL_SECONDS: '1', UPLOAD_MODE: 'proxy' });
let store: StorageDriver;
beforeAll(() => {
  store = openStore(serverEnv(), dataDir());
});
afterAll(() => store?.close());

async function member(quota: number) {
  const username = `j${randomBytes(5).toString('hex')}`;
  await call('POST', '/api/users', { base: baseUrl(), token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: quota } });
  const l = await call('POST', '/api/auth/login', { base: baseUrl(), body: { username, password: 'long enough' } });
  return l.json.token as string;
}

describe('proxy mode forced by UPLOAD_MODE=proxy', () => {
  it('uploads through the server on any store', async () => {
    const token = await member(1024 ** 3);
    const caps = await call('GET', '/api/shares/upload/capabilities', { base: baseUrl(), token });
    expect(caps.json).toMatchObject({ mode: 'proxy', partSize: 50_331_648, parallel: 1 });
    const data = randomBytes(1000);
    const { share } = await uploadShare(token, { 'dir/a.bin': data }, { base: baseUrl() });
    expect(share).toMatchObject({ file_count: 1, total_bytes: 1000 });
    const got = await fetch(`${baseUrl()}${share.items[0].url}`);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
  });
});

describe('the janitor', () => {
  it('aborts uploads left pending past their time: no parts, no records, no reservation', async () => {
    const quota = 4096;
    const token = await member(quota);
    const init = await call('POST', '/api/shares/upload/init', {
      base: baseUrl(),
      token,
      body: { files: [{ clientPath: 'a.bin', size: 2048 }, { clientPath: 'b.bin', size: 2048 }] },
    });
    expect(init.status).toBe(201);
    const f = init.json.files[0];
    const groupId = init.json.groupId;
    const r = await putPart(token, { groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 }, randomBytes(2048), 'proxy', baseUrl());
    expect(r.status).toBe(200);
    // Only the file that got a part has a store upload (they start at a file's first part).
    expect((await store.listMultipartUploads(`shared/${groupId}/`)).length).toBe(1);
    // The janitor drops the records, then the bytes: wait for both, within a deadline.
    const leftovers = async () => ({
      shares: (await call('GET', '/api/shares', { base: baseUrl(), token })).json.shares,
      uploads: await store.listMultipartUploads(`shared/${groupId}/`),
      objects: await store.list(`shared/${groupId}/`),
    });
    await expect.poll(leftovers, { timeout: 20_000, interval: 250 }).toEqual({ shares: [], uploads: [], objects: [] });
    // The reservation is released: the whole quota can be reserved again.
    const again = await call('POST', '/api/shares/upload/init', { base: baseUrl(), token, body: { files: [{ clientPath: 'c.bin', size: quota }] } });
    expect(again.status).toBe(201);
  });
});
