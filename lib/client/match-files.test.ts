import { describe, expect, it } from 'vitest';
import { matchFiles } from './match-files';

const file = (name: string, size: number, lastModified = 1000) => new File([new Uint8Array(size)], name, { lastModified });

describe('matchFiles', () => {
  const planned = [
    { clientPath: 'trip/clip.webm', size: 10, lastModified: 1000 },
    { clientPath: 'trip/notes/readme.txt', size: 3, lastModified: 1000 },
  ];

  it('matches the same folder picked again by path, size and modification time', () => {
    const r = matchFiles(planned, [
      { path: 'trip/clip.webm', file: file('clip.webm', 10) },
      { path: 'trip/notes/readme.txt', file: file('readme.txt', 3) },
      { path: 'trip/extra.txt', file: file('extra.txt', 1) },
    ]);
    expect([...r.matched.keys()]).toEqual(['trip/clip.webm', 'trip/notes/readme.txt']);
    expect([r.missing, r.changed]).toEqual([[], []]);
  });

  it('accepts the parent folder or single files picked instead', () => {
    const parent = matchFiles(planned, [
      { path: 'Desktop/trip/clip.webm', file: file('clip.webm', 10) },
      { path: 'Desktop/trip/notes/readme.txt', file: file('readme.txt', 3) },
    ]);
    expect(parent.matched.size).toBe(2);
    const single = matchFiles(planned, [{ path: 'clip.webm', file: file('clip.webm', 10) }]);
    expect([...single.matched.keys()]).toEqual(['trip/clip.webm']);
    expect(single.missing).toEqual(['trip/notes/readme.txt']);
  });

  it('refuses a file that changed since (size or modification time), and ignores the time when it is not known', () => {
    const r = matchFiles(planned, [
      { path: 'trip/clip.webm', file: file('clip.webm', 11) },
      { path: 'trip/notes/readme.txt', file: file('readme.txt', 3, 2000) },
    ]);
    expect(r.changed).toEqual(['trip/clip.webm', 'trip/notes/readme.txt']);
    const unknownTime = matchFiles([{ clientPath: 'trip/notes/readme.txt', size: 3 }], [{ path: 'trip/notes/readme.txt', file: file('readme.txt', 3, 2000) }]);
    expect(unknownTime.matched.size).toBe(1);
  });
});
