/**
 * The slow tier (`npm run test:slow`, run once by CI): a 1 GiB upload with `curl -T`, its bytes
 * written, stored, read back and hashed — 25–35 s of two cores, most of `npm test`'s longest
 * file. The rest of PUT /api/shares/file/<name> is tests/one-request-upload.test.ts.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, serverPid, useFileServer } from './support/file-server';
import { call, downloadHash } from './support/http';
import { createMember } from './support/members';
import { tempDir } from './support/server';
import { makeToken } from './support/tokens';

useFileServer();

const MiB = 1024 * 1024;
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** A file of `mib` MiB whose every MiB differs (a counter at its start), and its SHA-256. */
async function bigFile(mib: number): Promise<{ file: string; hash: string }> {
  const file = path.join(tempDir('htmls-big-'), 'big.bin');
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  const block = randomBytes(MiB);
  for (let i = 0; i < mib; i++) {
    const chunk = Buffer.from(block);
    chunk.writeUInt32BE(i, 0);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise((r, j) => out.end((e?: Error) => (e ? j(e) : r(null))));
  return { file, hash: hash.digest('hex') };
}


function curl(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('curl', ['-sS', ...args]);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('PUT /api/shares/file/<name> (curl -T)', () => {
  it('1 GiB with curl -T: online at once, byte-identical, server RSS within idle + 128 MiB', { timeout: 600_000 }, async () => {
    const m = await createMember({ quota: 2 * 1024 ** 3 });
    const token = await makeToken(m.token, ['shares:write']);
    const { file, hash } = await bigFile(1024);
    try {
      // Warm the path first, so the idle figure includes the code it loads.
      expect((await call('PUT', '/api/shares/file/warm.txt', { token, raw: 'warm!' })).status).toBe(201);
      const idle = rssOf(serverPid());
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(serverPid()))), 20);
      const r = await curl(['-H', `Authorization: Bearer ${token}`, '-T', file, `${baseUrl()}/api/shares/file/`]).finally(() => clearInterval(sampler));
      expect(r.code, r.stderr).toBe(0);
      const { share } = JSON.parse(r.stdout);
      expect(share).toMatchObject({ status: 'online', upload_state: 'complete', file_count: 1, total_bytes: 1024 * MiB });
      expect(share.items[0].relative_path).toBe('big.bin');
      // A buffered upload would grow by the file (1 GiB). The process is the test file's: the
      // server runs in it beside the test runner and the hosted front's thread, whose garbage
      // counts too — a quiet CI run saw 109.7 MiB against the 100 MiB this bound was when the
      // server had a process of its own (cause of the extra not found yet: closing note).
      expect(peak - idle, `RSS grew by ${((peak - idle) / MiB).toFixed(1)} MiB`).toBeLessThanOrEqual(128 * MiB);
      const got = await downloadHash(`${baseUrl()}${share.items[0].url}`);
      expect(got).toEqual({ status: 200, hash, bytes: 1024 * MiB });
      const me = await call('GET', '/api/auth/me', { token: m.token });
      expect(me.json.user.used_bytes).toBe(1024 * MiB + 5);
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
