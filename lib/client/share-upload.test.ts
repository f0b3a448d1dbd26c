import { describe, expect, it } from 'vitest';
import { planParts, SpeedMeter } from './share-upload';

const file = (clientPath: string, partCount: number) => ({ clientPath, relativePath: clientPath, uploadId: `u-${clientPath}`, storageKey: `k/${clientPath}`, partCount });

describe('planParts', () => {
  it('cuts each file into partSize slices, the last one shorter, an empty file into one empty part', () => {
    const items = new Map([
      ['a', { path: 'a', file: new Blob([new Uint8Array(25)]) }],
      ['b', { path: 'b', file: new Blob([]) }],
    ]);
    const jobs = planParts([file('a', 3), file('b', 1)], items, 10);
    expect(jobs.map((j) => [j.file.clientPath, j.partNumber, j.start, j.end])).toEqual([
      ['a', 1, 0, 10],
      ['a', 2, 10, 20],
      ['a', 3, 20, 25],
      ['b', 1, 0, 0],
    ]);
  });
});

describe('SpeedMeter', () => {
  it('measures bytes per second over its window', () => {
    const m = new SpeedMeter(5000);
    expect(m.speed()).toBe(0);
    m.add(0, 0);
    m.add(1_000_000, 1000);
    expect(m.speed()).toBe(1_000_000);
    m.add(2_000_000, 10_000); // the old samples slide out of the window
    m.add(4_000_000, 11_000);
    expect(m.speed()).toBe(2_000_000);
  });
});
