import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
