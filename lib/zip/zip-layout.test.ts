import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDescriptor, dosDateTime, localHeader, planZip, zipTail, type ZipInputEntry } from './zip-layout';

const dir = mkdtempSync(join(tmpdir(), 'zip-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const when = new Date(Date.UTC(2026, 10, 24, 10, 30, 44));

/** python3's zipfile: names, sizes, CRCs checked by reading every member. */
function pythonList(file: string): { name: string; size: number; date: number[] }[] {
  const out = execFileSync('python3', [
    '-c',
    'import zipfile,json,sys\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps([{"name":i.filename,"size":i.file_size,"date":list(i.date_time)} for i in z.infolist()]))',
    file,
  ]);
  return JSON.parse(out.toString());
}

function build(entries: ZipInputEntry[], data: Map<string, Buffer>): Buffer {
  const plan = planZip(entries);
  const parts: Buffer[] = [];
  const crcs = plan.entries.map((e, i) => (e.dir ? 0 : crc32(data.get(entries[i]!.name)!)));
  plan.entries.forEach((e, i) => {
    parts.push(localHeader(e));
    if (!e.dir) parts.push(data.get(entries[i]!.name)!, dataDescriptor(e, crcs[i]!));
  });
  parts.push(zipTail(plan, (i) => crcs[i]!));
  const zip = Buffer.concat(parts);
  expect(zip.length).toBe(plan.total);
  return zip;
}

describe('planZip', () => {
  it('lays out folders, UTF-8 names, empty files; unzip -t and python zipfile read it', () => {
    const data = new Map([
      ['a/résumé 東京.txt', Buffer.from('hello')],
      ['a/b/empty.bin', Buffer.alloc(0)],
      ['top.bin', Buffer.from([0, 1, 2, 3, 255])],
    ]);
    const entries: ZipInputEntry[] = [
      { name: 'a/', size: 0, mtime: when },
      { name: 'a/b/', size: 0, mtime: when },
      { name: 'a/b/empty.bin', size: 0, mtime: when },
      { name: 'a/résumé 東京.txt', size: 5, mtime: when },
      { name: 'top.bin', size: 5, mtime: when },
    ];
    const file = join(dir, 'small.zip');
    writeFileSync(file, build(entries, data));
    expect(execFileSync('unzip', ['-t', file]).toString()).toMatch(/No errors detected/);
    const listed = pythonList(file);
    expect(listed.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    expect(listed.map((e) => e.size)).toEqual([0, 0, 0, 5, 5]);
    expect(listed[3]!.date).toEqual([2026, 11, 24, 10, 30, 44]);
  });

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

  it('ZIP64 end records when there are 65535 entries or more', () => {
    const entries = Array.from({ length: 65_535 }, (_, i) => ({ name: `f${i}`, size: 1, mtime: when }));
    const plan = planZip(entries);
    expect(plan.zip64End).toBe(true);
    const tail = zipTail(plan, () => 0);
    const eocd = tail.subarray(tail.length - 22);
    expect(eocd.readUInt32LE(0)).toBe(0x06054b50);
    expect(eocd.readUInt16LE(10)).toBe(0xffff);
    const end64 = tail.subarray(plan.centralLength, plan.centralLength + 56);
    expect(end64.readBigUInt64LE(32)).toBe(65_535n);
    expect(Number(end64.readBigUInt64LE(48))).toBe(plan.centralOffset);
    expect(planZip(entries.slice(1)).zip64End).toBe(false);
  });

  it('DOS times are UTC, clamped to 1980', () => {
    expect(dosDateTime(new Date(0))).toEqual({ time: 0, date: (0 << 9) | (1 << 5) | 1 });
    expect(dosDateTime(when).time).toBe((10 << 11) | (30 << 5) | 22);
  });
});
