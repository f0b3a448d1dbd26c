import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readState, stateRecorder, writeState } from './upload-state';

const dirs: string[] = [];
const stateFile = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-state-'));
  dirs.push(dir);
  return path.join(dir, 'upload.json');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the CLI resume state', () => {
  it('holds every confirmed part once the recorder is closed, however fast they come', async () => {
    const file = stateFile();
    const rec = stateRecorder(file, { baseUrl: 'http://x', groupId: 'g' });
    // Parts confirmed in bursts, with writes in flight between them.
    for (let i = 1; i <= 500; i++) {
      rec.partStored(`photo-${i}.jpg`, 1);
      if (i % 37 === 0) await new Promise((r) => setImmediate(r));
    }
    await rec.close();
    const state = await readState(file);
    expect(new Set(state?.stored)).toEqual(new Set(Array.from({ length: 500 }, (_, i) => `photo-${i + 1}.jpg#1`)));
  });

  it('writes the first part at once and the parts after it together, not one write a part', async () => {
    const file = stateFile();
    const rec = stateRecorder(file, { baseUrl: 'http://x', groupId: 'g' }, 60_000);
    rec.partStored('a', 1);
    await expect.poll(async () => (await readState(file))?.stored).toEqual(['a#1']);
    for (let i = 2; i <= 100; i++) rec.partStored('a', i);
    // The next write waits its turn (a minute here): while three writes of another file go
    // through the same disk and thread pool, the file still holds the first part only…
    for (let i = 0; i < 3; i++) await writeState(`${file}.other`, { baseUrl: 'http://x', groupId: String(i) });
    expect((await readState(file))?.stored).toEqual(['a#1']);
    // …until the recorder closes, which writes what waited without waiting.
    await rec.close();
    expect((await readState(file))?.stored).toHaveLength(100);
  });

  it('marks the complete as sent after the last part', async () => {
    const file = stateFile();
    const rec = stateRecorder(file, { baseUrl: 'http://x', groupId: 'g', stored: ['a#1'] });
    rec.partStored('a', 2);
    await rec.completing();
    expect(await readState(file)).toEqual({ baseUrl: 'http://x', groupId: 'g', stored: ['a#1', 'a#2'], completing: true });
  });
});
