import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';

describe('verifyPassword', () => {
  it('checks scrypt hashes at the cost they were made with', async () => {
    const stored = await hashPassword('correct horse', 'test', 11);
    expect(stored).toMatch(/^v3:11:/);
    expect(await verifyPassword('correct horse', stored, 'test')).toBe(true);
    expect(await verifyPassword('wrong horse', stored, 'test')).toBe(false);
    // The cost is part of what is checked: the same salt and hash under another cost fail.
    expect(await verifyPassword('correct horse', stored.replace('v3:11:', 'v3:12:'), 'test')).toBe(false);
  });

  it('still accepts the v2 hashes made before the cost could be set (N=2^15, r=8, p=1)', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('correct horse', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const v2 = `v2:${salt.toString('base64url')}:${hash.toString('base64url')}`;
    expect(await verifyPassword('correct horse', v2, 'test')).toBe(true);
    expect(await verifyPassword('wrong horse', v2, 'test')).toBe(false);
  });

  it('refuses a stored hash whose cost is out of bounds, without hashing at it', async () => {
    const stored = await hashPassword('correct horse', 'test', 10);
    for (const bad of ['v3:9:', 'v3:09:', 'v3:19:', 'v3:20:', 'v3:40:', 'v3:x:', 'v3::']) {
      expect(await verifyPassword('correct horse', stored.replace('v3:10:', bad), 'test')).toBe(false);
    }
  });

  it('tells a hash made at another cost than the one set now, so a sign-in stores it again', async () => {
    const at11 = await hashPassword('correct horse', 'test', 11);
    expect(needsRehash(at11, 11)).toBe(false);
    expect(needsRehash(at11, 12)).toBe(true);
    expect(needsRehash('v2:c2FsdA:aGFzaA', 15)).toBe(false);
    expect(needsRehash('v2:c2FsdA:aGFzaA', 16)).toBe(true);
    // Not ours to make again: a guest password's legacy SHA-256, or anything unknown.
    expect(needsRehash(createHash('sha256').update('x').digest('hex'), 15)).toBe(false);
    expect(needsRehash('v1:whatever', 15)).toBe(false);
  });

  /** `n` calls spread over keys k0, k1, … at most four to a key (one key's share of a lane). */
  const spread = <T>(n: number, prefix: string, one: (key: string) => Promise<T>) => Array.from({ length: n }, (_, i) => one(`${prefix}${Math.floor(i / 4)}`));

  it('an unknown name refused while the checking lane is full is checked normally afterwards (no refusal kept)', async () => {
    const stored = await hashPassword('filler', 'test', 10);
    // 2 checks run and 16 wait: the next one is refused at once.
    const filling = spread(18, 'addr', (key) => verifyPassword('filler', stored, key));
    await expect(verifyAgainstDummy('guess', 'prober', 10)).rejects.toMatchObject({ code: 'rate_limited' });
    await Promise.all(filling);
    await expect(verifyAgainstDummy('guess', 'prober', 10)).resolves.toBe(false);
  });

  it('checking never waits behind setting: with the setting lane full, a check starts at once (issue 39, item 2)', async () => {
    const stored = await hashPassword('guest password', 'test', 10);
    let set = 0;
    // 1 setting runs and 16 wait, from five members: the next setter is refused.
    const filling = spread(17, 'member', (key) => hashPassword('filler', key, 10).then(() => set++));
    await expect(hashPassword('one more', 'late member', 10)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await verifyPassword('guest password', stored, 'guest')).toBe(true);
    expect(set).toBeLessThan(17);
    await Promise.all(filling);
  });

  it('one key holds at most four places of a lane; another key still gets in (issue 39, item 2)', async () => {
    const stored = await hashPassword('x', 'test', 10);
    const mine = Array.from({ length: 4 }, () => hashPassword('filler', 'member', 10));
    await expect(hashPassword('fifth', 'member', 10)).rejects.toMatchObject({ code: 'rate_limited' });
    const checks = Array.from({ length: 4 }, () => verifyPassword('x', stored, 'address'));
    await expect(verifyPassword('x', stored, 'address')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(hashPassword('another member', 'other member', 10)).resolves.toMatch(/^v3:10:/);
    await expect(verifyPassword('x', stored, 'other address')).resolves.toBe(true);
    await Promise.all([...mine, ...checks]);
    await expect(hashPassword('fifth', 'member', 10)).resolves.toMatch(/^v3:10:/);
  });

  it('still accepts the older plain SHA-256 hex hashes of guest passwords (any case), and nothing else', async () => {
    const legacy = createHash('sha256').update('site password').digest('hex');
    expect(await verifyPassword('site password', legacy, 'test')).toBe(true);
    expect(await verifyPassword('site password', legacy.toUpperCase(), 'test')).toBe(true);
    expect(await verifyPassword('other password', legacy, 'test')).toBe(false);
    expect(await verifyPassword('site password', legacy.slice(1), 'test')).toBe(false);
    expect(await verifyPassword('site password', 'v1:whatever', 'test')).toBe(false);
  });
});
