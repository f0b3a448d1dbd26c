import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { startInProcess, type InProcessServer } from './support/in-process';
import { TEST_ADMIN_TOKEN, tempDir } from './support/server';
import { putPart } from './support/shares';
import { openStore } from './support/store';

/** name → CRC-32 as the ZIP's central directory states it (python3's zipfile). */
const crcsInZip = (file: string): Record<string, number> =>
  JSON.parse(
    execFileSync('python3', ['-c', 'import json,sys,zipfile; print(json.dumps({i.filename: i.CRC for i in zipfile.ZipFile(sys.argv[1]).infolist()}))', file]).toString(),
  );

/**
 * Parts sent through the server are hashed as they stream, and completing a file combines their
 * CRC-32s: the first "Download all" ZIP need not read every file once more just for its CRC.
 */
describe('CRC-32s of proxy uploads', () => {
  let server: InProcessServer;
  let env: Record<string, string | undefined>;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    env = { ...(await migratedServiceEnv()), UPLOAD_MODE: 'proxy' };
    dataDir = env.DATA_DIR!;
    server = await startInProcess({ ...env, DATA_DIR: dataDir });
    const username = `crc${Date.now().toString(36)}`;
    await call('POST', '/api/users', { base: server.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
    token = (await call('POST', '/api/auth/login', { base: server.url, body: { username, password: 'long enough' } })).json.token;
  }, 120_000);
  afterAll(() => server?.stop());

  it('the ZIP carries the CRC of the bytes last sent for each part, known without reading the stored file', { timeout: 180_000 }, async () => {
    const base = server.url;
    const init = await call('POST', '/api/shares/upload/init', {
      token,
      base,
      body: { files: [{ clientPath: 'big.bin', size: 48 * 1024 * 1024 + 1000 }, { clientPath: 'small.txt', size: 5 }] },
    });
    expect(init.status).toBe(201);
    const { groupId, mode, partSize } = init.json as { groupId: string; mode: 'proxy'; partSize: number };
    expect([mode, partSize]).toEqual(['proxy', 48 * 1024 * 1024]);
    const big = randomBytes(48 * 1024 * 1024 + 1000);
    const small = Buffer.from('hello');
    const [bigFile, smallFile] = init.json.files as { uploadId: string; storageKey: string; partCount: number }[];
    const ref = (f: typeof bigFile, partNumber: number) => ({ groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber });

    // Part 1 of big.bin is sent twice with different bytes: the second one is what the file holds.
    const first = randomBytes(partSize);
    expect((await putPart(token, ref(bigFile, 1), first, mode, base)).status).toBe(200);
    const p1 = await putPart(token, ref(bigFile, 1), big.subarray(0, partSize), mode, base);
    const p2 = await putPart(token, ref(bigFile, 2), big.subarray(partSize), mode, base);
    const s1 = await putPart(token, ref(smallFile, 1), small, mode, base);
    const complete = await call('POST', '/api/shares/upload/complete', {
      token,
      base,
      body: {
        groupId,
        files: [
          { uploadId: bigFile.uploadId, storageKey: bigFile.storageKey, parts: [{ partNumber: 1, etag: p1.etag }, { partNumber: 2, etag: p2.etag }] },
          { uploadId: smallFile.uploadId, storageKey: smallFile.storageKey, parts: [{ partNumber: 1, etag: s1.etag }] },
        ],
      },
    });
    expect(complete.status).toBe(200);

    // The stored big.bin is replaced behind the server's back by other bytes of the same size:
    // a server that hashed it now would state their CRC.
    const store = openStore(env, dataDir);
    const swapped = randomBytes(big.length);
    await store.put(bigFile.storageKey, Readable.from([swapped]), { size: swapped.length });

    const zip = await fetch(`${base}/f/${groupId}/?zip`);
    expect(zip.status).toBe(200);
    const file = path.join(tempDir(), 'share.zip');
    writeFileSync(file, Buffer.from(await zip.arrayBuffer()));
    expect(crcsInZip(file)).toEqual({ 'big.bin': crc32(big), 'small.txt': crc32(small) });
    expect(crc32(big)).not.toBe(crc32(swapped));
  });
});
