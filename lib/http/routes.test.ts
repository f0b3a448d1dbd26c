import { describe, expect, it } from 'vitest';
import { guestRouteOf, pathMatcher, takesLongBody } from './routes';

describe('the route table', () => {
  it('matches each guest route as its pattern says, in order', () => {
    const name = (url: string) => guestRouteOf(url)?.name ?? null;
    expect(name('/f/abc/file.txt')).toBe('share item');
    expect(name('/f/abc/dir/a%20b.txt?download')).toBe('share item');
    expect(name('/f/abc/?zip')).toBe('share ZIP');
    expect(name('/f/abc?zip&folder=a')).toBe('share ZIP');
    expect(name('/f/abc')).toBe('share page');
    expect(name('/f/abc/')).toBe('share page');
    expect(name('/f/abc?x=1')).toBe('share page');
    expect(name('/f/abc.png')).toBe('share card image');
    expect(name('/f/abc.player')).toBe('share video player');
    expect(name('/f/abc/dir/v.mp4?poster')).toBe('share item poster');
    expect(name('/f/abc/dir/v.mp4?preview')).toBe('share item');
    expect(name('/f/')).toBeNull();
    expect(name('/f//x')).toBeNull();
    expect(name('/r/abc')).toBe('request page');
    expect(name('/r/abc/unlock')).toBe("request page's unlock");
    expect(name('/api/shares/upload/chunk?group_id=x')).toBe('chunk upload');
    expect(name('/api/shares/upload/chunkX')).toBeNull();
    expect(name('/api/shares/file/a.txt')).toBe('one-request share (curl -T)');
    expect(name('/api/shares/file/')).toBe('one-request share (curl -T)');
    expect(name('/api/shares/files')).toBe('one-request share (multipart)');
    expect(name('/api/shares')).toBeNull();
    expect(name('/p/site/')).toBeNull();
  });

  it('patterns: one non-empty segment per parameter, a non-empty rest, an optional final slash', () => {
    const m = pathMatcher('/a/:id/?');
    expect([m('/a/x'), m('/a/x/'), m('/a/'), m('/a/x/y'), m('/a')]).toEqual([true, true, false, false, false]);
    const rest = pathMatcher('/a/*rest');
    expect([rest('/a/x'), rest('/a/x/y'), rest('/a/'), rest('/a')]).toEqual([true, true, false, false]);
    const png = pathMatcher('/f/:id.png');
    expect([png('/f/a.png'), png('/f/.png'), png('/f/a.jpg')]).toEqual([true, false, false]);
  });

  it('gives long bodies to the uploads only, never to a GET', () => {
    expect(takesLongBody('PUT', '/api/shares/upload/chunk?x=1')).toBe(true);
    expect(takesLongBody('POST', '/api/shares/upload/complete')).toBe(true);
    expect(takesLongBody('POST', '/api/upload')).toBe(true);
    expect(takesLongBody('PUT', '/api/shares/file/a.bin')).toBe(true);
    expect(takesLongBody('POST', '/api/shares/files')).toBe(true);
    expect(takesLongBody('GET', '/api/shares/upload/chunk')).toBe(false);
    expect(takesLongBody('POST', '/api/shares/upload/init')).toBe(false);
    expect(takesLongBody('POST', '/api/auth/login')).toBe(false);
    expect(takesLongBody('POST', '/f/abc/x')).toBe(false);
  });
});
