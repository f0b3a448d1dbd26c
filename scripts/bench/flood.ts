/**
 * `npm run bench -- --only flood [--quick]`: how a 1 MiB range fares while one member floods the
 * server (issue 39, item 8). The review's flood: a member's token sending share-password PATCHes
 * on 64 keep-alive connections (scripts/bench/flood-client.ts, a process of its own), each from another address (X-Forwarded-For, TRUST_PROXY as the
 * test servers run), so the per-address budget never sees two. Measured twice on fresh servers
 * with the shipped budgets and password cost: the per-principal budget on (the default), and
 * off (the per-address budget alone, as before it). Reports; asserts nothing.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { migrate, startServer, tempDir, TEST_ADMIN_TOKEN } from '../../tests/support/server';
import { addRow, api, log, median, MiB, quick } from './common';

const FLOOD_SECONDS = quick ? 5 : 15;
const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function send(agent: http.Agent, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Times 1 MiB ranges one after another from one quiet address until `until` resolves. */
async function timeRanges(url: URL, until: () => boolean, atLeast = 5): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const quiet = ip();
  while (times.length < atLeast || !until()) {
    const t = performance.now();
    const r = await send(agent, url, 'GET', { Range: 'bytes=0-1048575', 'X-Forwarded-For': quiet });
    if (r.status !== 206 || r.bytes !== MiB) throw new Error(`range answered ${r.status} with ${r.bytes} bytes`);
    times.push(performance.now() - t);
  }
  agent.destroy();
  return times;
}

async function onePass(env: Record<string, string | undefined>, principalBudget: boolean) {
  const dataDir = tempDir('htmls-bench-flood-');
  const m = migrate({ DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL });
  if (m.status !== 0) throw new Error(`migrate failed: ${m.stderr}`);
  const server = await startServer({
    ...env,
    DATA_DIR: dataDir,
    REQUESTS_PER_SECOND_PER_IP: '30',
    REQUESTS_PER_SECOND_PER_PRINCIPAL: principalBudget ? '30' : '0',
    PASSWORD_SCRYPT_LOG_N: '15',
  });
  try {
    await api(server.url, 'POST', '/api/users', TEST_ADMIN_TOKEN, { username: 'flooder', password: 'flooder-password', quota_bytes: 2 ** 40 });
    const token = (await api(server.url, 'POST', '/api/auth/login', TEST_ADMIN_TOKEN, { username: 'flooder', password: 'flooder-password' })).token as string;
    const { uploadShare } = await import('../../tests/support/shares');
    const served = await uploadShare(TEST_ADMIN_TOKEN, { 'range.bin': randomBytes(16 * MiB) }, { base: server.url });
    const target = await uploadShare(token, { 'x.bin': randomBytes(10) }, { base: server.url });
    if (!served.share || !target.share) throw new Error('bench upload failed');
    await api(server.url, 'PATCH', `/api/shares/${served.share.id}`, TEST_ADMIN_TOKEN, { status: 'online' });
    await api(server.url, 'PATCH', `/api/shares/${target.share.id}`, token, { status: 'online' });
    const rangeUrl = new URL(`/f/${served.share.id}/range.bin`, server.url);
    const idle = await timeRanges(rangeUrl, () => true, 10);

    // The flood runs in a process of its own: in this one, its 64 connections slowed the
    // ranges' timer as much as the server did.
    const patchUrl = new URL(`/api/shares/${target.share.id}`, server.url);
    const flooder = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'flood-client.ts'), patchUrl.href, token, String(FLOOD_SECONDS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: flooder.stdout! })[Symbol.asyncIterator]();
    if ((await lines.next()).value !== 'started') throw new Error('the flood client did not start');
    const during = await timeRanges(rangeUrl, () => flooder.exitCode !== null);
    const statuses = new Map(Object.entries(JSON.parse(String((await lines.next()).value ?? '{}')) as Record<string, number>));
    const label = principalBudget ? 'per-principal budget on' : 'per-principal budget off';
    log(`[flood, ${label}] PATCH answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; ranges idle ${idle.map((t) => t.toFixed(0)).join('/')} ms, during ${during.length} ranges`);
    addRow(`1 MiB range during one member's PATCH flood, median (${label})`, median(during), 'ms', median(idle), 'idle', { max: 1500, text: '≤ 1,500 ms' }, false);
    addRow(`1 MiB range during one member's PATCH flood, slowest (${label})`, Math.max(...during), 'ms', Math.max(...idle), 'idle', { max: 1500, text: '≤ 1,500 ms' }, false);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchFlood(env: Record<string, string | undefined>) {
  await onePass(env, true);
  await onePass(env, false);
}
