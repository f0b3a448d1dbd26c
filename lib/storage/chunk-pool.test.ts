import { describe, expect, it } from 'vitest';
import { CHUNK, giveChunk, isPooled, takeChunk } from './chunk-pool';

describe('chunk pool', () => {
  it('hands a given-back chunk out again, and knows its views', () => {
    const a = takeChunk();
    expect(a.length).toBe(CHUNK);
    const view = a.subarray(10, 20);
    expect(isPooled(view)).toBe(true);
    giveChunk(view);
    expect(takeChunk().buffer).toBe(a.buffer);
  });

  it('ignores buffers it did not make, and a chunk given back twice is handed out once', () => {
    const foreign = Buffer.alloc(CHUNK);
    expect(isPooled(foreign)).toBe(false);
    giveChunk(foreign);
    expect(takeChunk().buffer).not.toBe(foreign.buffer);
    const b = takeChunk();
    giveChunk(b);
    giveChunk(b);
    const first = takeChunk();
    const second = takeChunk();
    expect(first.buffer).toBe(b.buffer);
    expect(second.buffer).not.toBe(b.buffer);
  });

  it('keeps at most a bounded number of free chunks', () => {
    const many = Array.from({ length: 40 }, () => takeChunk());
    for (const c of many) giveChunk(c);
    const again = Array.from({ length: 40 }, () => takeChunk());
    const reused = again.filter((c) => many.some((m) => m.buffer === c.buffer)).length;
    expect(reused).toBeGreaterThan(0);
    expect(reused).toBeLessThan(40);
  });
});
