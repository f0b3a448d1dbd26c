/**
 * A one-request share upload (`curl -T file …/api/shares/file/`) against the plain ways to move
 * the same bytes: curl -T to a bare Node server writing the body to a file on the same disk
 * (fs), and the AWS SDK putting the file's parts straight to the S3 server (s3), one at a time in
 * the proxy part size.
 */
import { spawnSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROXY_PART_SIZE } from '../../lib/contract/shares';
import { addRow, api, log, mbps, median, MiB, RUNS, SIZE, startBareServer, type BenchContext } from './common';
import { BARE_SERVER, sdkBaseline } from './upload-baselines';
import { quietDisk } from './uploads';

/** curl -T, timed by curl itself; the answer's body. */
function curlPut(url: string, file: string, headers: string[] = []): { ms: number; body: string } {
  const r = spawnSync('curl', ['-sS', '-T', file, ...headers.flatMap((h) => ['-H', h]), '-w', '\n%{http_code} %{time_total}', url], { encoding: 'utf8', maxBuffer: 64 * MiB });
  const lines = r.stdout.trimEnd().split('\n');
  const [code, total] = lines.pop()!.split(' ');
  if (!/^2/.test(code)) throw new Error(`curl -T ${url}: ${code} ${lines.join('\n').slice(0, 300)} ${r.stderr}`);
  return { ms: Number(total) * 1000, body: lines.join('\n') };
}

export async function benchOneRequestUpload(ctx: BenchContext): Promise<void> {
  const { base, member, env, shareFile, work } = ctx;
  const s3 = env.STORAGE === 's3';
  log('one-request upload (curl -T)…');
  const bare = s3 ? null : await startBareServer(BARE_SERVER, [work]);
  const sdk = s3 ? sdkBaseline(env) : null;
  const ours: number[] = [];
  const theirs: number[] = [];
  const runOurs = async () => {
    await quietDisk();
    const r = curlPut(`${base}/api/shares/file/`, shareFile, [`Authorization: Bearer ${member}`]);
    ours.push(r.ms);
    await api(base, 'DELETE', `/api/shares/${JSON.parse(r.body).share.id}`, member);
  };
  const runTheirs = async (i: number) => {
    await quietDisk();
    if (bare) {
      // The bare server writes into an existing file at an offset (flags r+), as for parts.
      await writeFile(path.join(work, `bare-curl-${i}`), '');
      theirs.push(curlPut(`${bare.url}/curl-${i}?start=0`, shareFile).ms);
      await rm(path.join(work, `bare-curl-${i}`), { force: true });
    } else {
      const r = await sdk!.upload(shareFile, SIZE, PROXY_PART_SIZE, 1);
      theirs.push(r.ms);
      await r.cleanup();
    }
  };
  try {
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        await runOurs();
        await runTheirs(i);
      } else {
        await runTheirs(i);
        await runOurs();
      }
    }
  } finally {
    bare?.stop();
    await sdk?.stop();
  }
  const each = (ms: number[]) => ms.map((m) => mbps(SIZE, m).toFixed(0)).join(', ');
  log(`  curl -T: ours ${each(ours)} MiB/s; baseline ${each(theirs)} MiB/s (run by run)`);
  const label = s3 ? `the SDK's ${PROXY_PART_SIZE / MiB} MiB part PUTs to S3, one at a time` : 'curl -T to a bare Node server writing the body to a file';
  addRow(`${SIZE / MiB} MiB curl -T one-request share`, mbps(SIZE, median(ours)), 'MiB/s', mbps(SIZE, median(theirs)), label, { min: 0.8, text: 'goal ≥ 0.8×' });
}
