/**
 * Small files (issue 28 item 2): a share of COUNT × 10 KB files through the SDK the CLI runs
 * (capabilities, init, every part with the server's `parallel`, complete), in proxy mode, beside a
 * bare Node server taking the same PUTs the same way (same client process style, same
 * parallelism, keep-alive, each body streamed from its file on disk). The figure is what a
 * person running `htmls share` waits for; the ratio is per-file server work against the least a
 * Node server can do per PUT.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { HtmlsClient } from '../../lib/client/node/sdk';
import { addRow, api, fmt, log, median, quick, RUNS, startBareServer, type BenchContext } from './common';

const FILE_BYTES = 10 * 1000;

/** Writes each PUT's body to its own file, as our fs store writes each small file's one part. */
const BARE_SERVER = `
const http = require('http'), fs = require('fs'), path = require('path');
let n = 0;
http.createServer((req, res) => {
  const out = fs.createWriteStream(path.join(process.argv[1], 'small-' + (n++)));
  req.pipe(out);
  out.on('finish', () => res.end('{"etag":"x"}'));
}).listen(Number(process.argv[2]), '127.0.0.1', () => console.log('up'));`;

/** The same PUTs, `parallel` at a time on keep-alive connections, each streamed from its file. */
async function putAll(url: string, files: string[], parallel: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < files.length) {
        const file = files[next++];
        await new Promise<void>((resolve, reject) => {
          const req = http.request(`${url}/${next}`, { method: 'PUT', agent, headers: { 'Content-Length': String(FILE_BYTES) } }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          createReadStream(file).pipe(req);
        });
      }
    }),
  );
  const ms = performance.now() - t0;
  agent.destroy();
  return ms;
}

export async function benchSmallFiles(ctx: BenchContext): Promise<void> {
  const count = quick ? 100 : 500;
  const dir = path.join(ctx.work, 'small');
  mkdirSync(dir, { recursive: true });
  const files = Array.from({ length: count }, (_, i) => {
    const f = path.join(dir, `photo-${String(i).padStart(4, '0')}.jpg`);
    writeFileSync(f, randomBytes(FILE_BYTES));
    return f;
  });
  const caps = await api(ctx.base, 'GET', '/api/shares/upload/capabilities', ctx.member);
  if (caps.mode !== 'proxy') log(`small files: the server offers ${caps.mode} mode here; the row measures proxy mode only on a proxy store`);
  const client = new HtmlsClient({ baseUrl: ctx.base, token: ctx.member });
  const bareDir = path.join(ctx.work, 'bare-small');
  mkdirSync(bareDir);
  const bare = await startBareServer(BARE_SERVER, [bareDir]);
  const ours: number[] = [];
  const theirs: number[] = [];
  const made: string[] = [];
  try {
    /** One round: our share (init, parts, complete), then the bare server's PUTs, each after a `sync`. */
    const round = async () => {
      // Each side starts with nothing of the other's left to write back (500 new files a round).
      spawnSync('sync');
      const t0 = performance.now();
      made.push((await client.uploadShare([dir], { stateDir: path.join(ctx.work, 'state') })).id);
      const mine = performance.now() - t0;
      spawnSync('sync');
      return [mine, await putAll(bare.url, files, caps.parallel)] as const;
    };
    // Two rounds, not counted: the server and this client process have just started, and their
    // first rounds run code not yet compiled — init and complete run once a round, so they take
    // a few rounds to be optimised (a CLI talks to a server that has been up). A round is about
    // a second: the median is of at least 5.
    const warm = [await round(), await round()];
    log(`  small files, first rounds (not counted): ours ${warm.map(([m]) => fmt(m)).join(', ')} ms; bare ${warm.map(([, b]) => fmt(b)).join(', ')} ms`);
    for (let i = 0; i < Math.max(RUNS, 5); i++) {
      const [mine, bareMs] = await round();
      ours.push(mine);
      theirs.push(bareMs);
    }
  } finally {
    bare.stop();
  }
  // Deleted once the rounds are over, not between them: on a file system that makes a new inode
  // skip those freed in the last minute (ext4 without a journal, as on this machine kind), a
  // deletion of 2,500 inodes between rounds made the next round of ours twice as slow while the
  // bare server, which deletes nothing, ran on a clean disk (docs/scale.md).
  for (const id of made) await api(ctx.base, 'DELETE', `/api/shares/${id}`, ctx.member);
  log(`  small files: ours ${ours.map((m) => fmt(m)).join(', ')} ms; bare ${theirs.map((m) => fmt(m)).join(', ')} ms (run by run)`);
  const label = `${count} × 10 KB share via the SDK, proxy mode, ${caps.parallel} part(s) at a time`;
  addRow(label, median(ours), 'ms', null, '', { max: quick ? 600 : 3000, text: `goal < ${quick ? 0.6 : 3} s` }, false);
  const rate = (ms: number) => count / (ms / 1000);
  addRow(`${count} × 10 KB files/s (init + parts + complete)`, rate(median(ours)), 'files/s', rate(median(theirs)), `bare Node server, the same ${count} PUTs`, { min: 0.5, text: 'goal ≥ 0.5×' });
}
