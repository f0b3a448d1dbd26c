import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secondCopy } from '../../tests/support/module-copy';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';

describe('verifyPassword', () => {
  it('checks scrypt hashes at the cost they were made with', async () => {
    const stored = await hashPassword('correct horse', 11);
    expect(stored).toMatch(/^v3:11:/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
    // The cost is part of what is checked: the same salt and hash under another cost fail.
    expect(await verifyPassword('correct horse', stored.replace('v3:11:', 'v3:12:'))).toBe(false);
  });

  it('still accepts the v2 hashes made before the cost could be set (N=2^15, r=8, p=1)', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('correct horse', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const v2 = `v2:${salt.toString('base64url')}:${hash.toString('base64url')}`;
    expect(await verifyPassword('correct horse', v2)).toBe(true);
    expect(await verifyPassword('wrong horse', v2)).toBe(false);
  });

  it('refuses a stored hash whose cost is out of bounds, without hashing at it', async () => {
    const stored = await hashPassword('correct horse', 10);
    for (const bad of ['v3:9:', 'v3:09:', 'v3:19:', 'v3:20:', 'v3:40:', 'v3:x:', 'v3::']) {
      expect(await verifyPassword('correct horse', stored.replace('v3:10:', bad))).toBe(false);
    }
  });

  it('tells a hash made at another cost than the one set now, so a sign-in stores it again', async () => {
    const at11 = await hashPassword('correct horse', 11);
    expect(needsRehash(at11, 11)).toBe(false);
    expect(needsRehash(at11, 12)).toBe(true);
    expect(needsRehash('v2:c2FsdA:aGFzaA', 15)).toBe(false);
    expect(needsRehash('v2:c2FsdA:aGFzaA', 16)).toBe(true);
    // Not ours to make again: a guest password's legacy SHA-256, or anything unknown.
    expect(needsRehash(createHash('sha256').update('x').digest('hex'), 15)).toBe(false);
    expect(needsRehash('v1:whatever', 15)).toBe(false);
  });

  it('an unknown name refused while the hash queue is full is checked normally afterwards (no refusal kept)', async () => {
    // 2 hashes run and 16 wait: the next one is refused at once.
    const filling = Array.from({ length: 18 }, () => hashPassword('filler', 10));
    await expect(verifyAgainstDummy('guess', 10)).rejects.toMatchObject({ code: 'rate_limited' });
    await Promise.all(filling);
    await expect(verifyAgainstDummy('guess', 10)).resolves.toBe(false);
  });

  it('two copies of this module in one process (the compiled server’s and Next’s bundle) share the one bound on hashes at once', async () => {
    // Another instance of the module, as Next's bundle holds beside the compiled server.
    const copy = await secondCopy<typeof import('./passwords')>(new URL('./passwords.ts', import.meta.url));
    expect(copy.hashPassword).not.toBe(hashPassword);
    const filling = Array.from({ length: 18 }, () => hashPassword('filler', 10));
    await expect(copy.hashPassword('from the other copy', 10)).rejects.toMatchObject({ code: 'rate_limited' });
    await Promise.all(filling);
    await expect(copy.hashPassword('from the other copy', 10)).resolves.toMatch(/^v3:10:/);
  });

  it('still accepts the older plain SHA-256 hex hashes of guest passwords (any case), and nothing else', async () => {
    const legacy = createHash('sha256').update('site password').digest('hex');
    expect(await verifyPassword('site password', legacy)).toBe(true);
    expect(await verifyPassword('site password', legacy.toUpperCase())).toBe(true);
    expect(await verifyPassword('other password', legacy)).toBe(false);
    expect(await verifyPassword('site password', legacy.slice(1))).toBe(false);
    expect(await verifyPassword('site password', 'v1:whatever')).toBe(false);
  });
});
