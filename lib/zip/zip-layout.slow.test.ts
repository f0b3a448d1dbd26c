import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDescriptor, localHeader, planZip, zipTail, type ZipInputEntry } from './zip-layout';

// The slow tier (`npm run test:slow`, run once by CI): this case hashes 4.5 GiB of zeros.
const dir = mkdtempSync(join(tmpdir(), 'zip-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const when = new Date(Date.UTC(2026, 10, 24, 10, 30, 44));

describe('planZip', () => {
  it('ZIP64: a 4.5 GiB entry and an entry past 4 GiB, as a sparse file; python reads the last entry', () => {
    const big = 4.5 * 2 ** 30;
    const entries: ZipInputEntry[] = [
      { name: 'zeros.bin', size: big, mtime: when },
      { name: 'z/', size: 0, mtime: when },
      { name: 'z/tail.txt', size: 4, mtime: when },
    ];
    const plan = planZip(entries);
    const [z, d, t] = plan.entries;
    expect(z!.zip64Size).toBe(true);
    expect(z!.headerLength).toBe(30 + 9 + 20);
    expect(z!.descriptorLength).toBe(24);
    expect(d!.zip64Offset).toBe(true);
    expect(t!.offset).toBe(z!.headerLength + big + 24 + d!.headerLength);
    expect(plan.zip64End).toBe(true);
    // central: 3 headers + zip64 extras (sizes 16 + 4; offsets 8 + 4 twice), then 56 + 20 + 22
    expect(plan.centralLength).toBe(46 * 3 + 9 + 2 + 10 + 20 + 12 + 12);
    expect(plan.total).toBe(plan.centralOffset + plan.centralLength + 98);

    let zeroCrc = 0;
    const chunk = Buffer.alloc(2 ** 28);
    for (let left = big; left > 0; left -= chunk.length) zeroCrc = crc32(chunk.subarray(0, Math.min(left, chunk.length)), zeroCrc);
    const crcs = [zeroCrc, 0, crc32(Buffer.from('tail'))];
    const file = join(dir, 'big.zip');
    const fd = openSync(file, 'w');
    const at = (buf: Buffer, pos: number) => writeSync(fd, buf, 0, buf.length, pos);
    at(localHeader(z!), 0);
    at(dataDescriptor(z!, crcs[0]!), z!.dataStart + big);
    at(localHeader(d!), d!.offset);
    at(localHeader(t!), t!.offset);
    at(Buffer.from('tail'), t!.dataStart);
    at(dataDescriptor(t!, crcs[2]!), t!.dataStart + 4);
    at(zipTail(plan, (i) => crcs[i]!), plan.centralOffset);
    closeSync(fd);
    expect(execFileSync('unzip', ['-l', file]).toString()).toMatch(/4831838208\s+\S+\s+\S+\s+zeros\.bin/);
    const out = execFileSync('python3', [
      '-c',
      'import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nprint([(i.filename,i.file_size,i.header_offset) for i in z.infolist()])\nprint(z.read("z/tail.txt").decode())',
      file,
    ]).toString();
    expect(out).toContain(`('zeros.bin', ${big}, 0)`);
    expect(out).toContain(`('z/tail.txt', 4, ${t!.offset})`);
    expect(out.trim().endsWith('tail')).toBe(true);
  });
});
