/**
 * DOWNLOAD_MODE=redirect (s3 pass only): the share download through the server's 302 to a
 * presigned GET against the same client's GET of the presigned URL itself, and the server's CPU
 * per GiB downloaded beside the relay's (proxy mode) — what redirect mode takes off the server.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3FromEnv } from '../../tests/support/env';
import { s3Client } from '../../tests/support/services';
import { addRow, download, log, mbps, median, MiB, RUNS, SIZE, type BenchContext } from './common';
import type { UploadedShare } from './uploads';

/** utime + stime of a process, in seconds (/proc/<pid>/stat fields 14 and 15, 100 ticks/s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** curl following the redirect, as `curl -L` would; the same timing as download(). */
function downloadFollowing(url: string): { bytes: number; ms: number } {
  const r = spawnSync('curl', ['-s', '-L', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', url], { encoding: 'utf8' });
  const [code, bytes, total] = r.stdout.trim().split(' ').map(Number);
  if (code !== 200) throw new Error(`GET -L ${url}: ${code}`);
  return { bytes, ms: total * 1000 };
}

type Timed = { bytes: number; ms: number };

/**
 * The jobs in turn, RUNS times (load from elsewhere hits them alike), after one untimed run
 * each; per job the median time and the server's CPU seconds per GiB, counted while it ran.
 */
async function interleaved(ctx: BenchContext, jobs: (() => Promise<Timed> | Timed)[]) {
  for (const job of jobs) await job();
  const times: number[][] = jobs.map(() => []);
  const cpu = jobs.map(() => 0);
  for (let i = 0; i < RUNS; i++) {
    for (const [j, job] of jobs.entries()) {
      const c0 = cpuSeconds(ctx.pid);
      const r = await job();
      cpu[j] += cpuSeconds(ctx.pid) - c0;
      if (r.bytes !== SIZE) throw new Error('a download came back short');
      times[j].push(r.ms);
    }
  }
  const gib = (SIZE * RUNS) / (1024 * MiB);
  return jobs.map((_, j) => ({ ms: median(times[j]), cpuPerGiB: cpu[j] / gib }));
}

export async function benchRedirect(ctx: BenchContext, share: UploadedShare): Promise<void> {
  if (ctx.env.STORAGE !== 's3') return;
  log('redirect downloads…');
  const client = s3Client(s3FromEnv()!);
  const directUrl = await getSignedUrl(client, new GetObjectCommand({ Bucket: ctx.env.S3_BUCKET!, Key: `shared/${share.id}/bench.bin` }), { expiresIn: 3600 });
  client.destroy();
  const url = ctx.base + share.items[0].url;
  const [relay] = await interleaved(ctx, [() => download(url)]);
  await ctx.restart({ DOWNLOAD_MODE: 'redirect' });
  try {
    const itemUrl = ctx.base + share.items[0].url;
    const [redirect, direct] = await interleaved(ctx, [() => downloadFollowing(itemUrl), () => download(directUrl)]);
    addRow(`${SIZE / MiB} MiB share download, DOWNLOAD_MODE=redirect`, mbps(SIZE, redirect.ms), 'MiB/s', mbps(SIZE, direct.ms), 'the same GET straight from S3, presigned', {
      min: 0.95,
      text: 'goal ≥ 0.95× direct',
    });
    addRow('server CPU per GiB downloaded, redirect', redirect.cpuPerGiB, 's', relay.cpuPerGiB, 'relay (proxy mode), same file', undefined, false);
  } finally {
    await ctx.restart();
  }
}
