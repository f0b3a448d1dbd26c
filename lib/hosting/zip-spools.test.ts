import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spoolZip, sweepZipSpools } from './unpack-zip';

describe('sweepZipSpools', () => {
  let tmp: string;
  const was = process.env.TMPDIR;
  beforeEach(() => {
    // A folder of its own: the sweep must not see other test files' spools.
    tmp = mkdtempSync(path.join(os.tmpdir(), 'htmls-spool-test-'));
    process.env.TMPDIR = tmp;
  });
  afterEach(() => {
    if (was === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = was;
    rmSync(tmp, { recursive: true, force: true });
  });

  const old = (spool: { file: string }) => {
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const p of [spool.file, path.dirname(spool.file)]) utimesSync(p, hourAgo, hourAgo);
  };

  it('never takes a spool in use, however old', async () => {
    const spool = await spoolZip(Readable.from([Buffer.from('PK not really a zip')]), 'site.zip', 1024);
    old(spool);
    expect(await sweepZipSpools(new Date())).toBe(0);
    expect(existsSync(spool.file)).toBe(true);
    await spool.remove();
  });

  it('removes a spool a crash left behind once it is older than the cut-off, and keeps a fresh one', async () => {
    const leftBy = (name: string) => {
      const dir = path.join(tmp, `htmls-zip-${name}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'upload.zip'), 'left by a crash');
      return { file: path.join(dir, 'upload.zip') };
    };
    const stale = leftBy('stale');
    const fresh = leftBy('fresh');
    old(stale);
    expect(await sweepZipSpools(new Date(Date.now() - 60_000))).toBe(1);
    expect(existsSync(path.dirname(stale.file))).toBe(false);
    expect(existsSync(fresh.file)).toBe(true);
  });
});
