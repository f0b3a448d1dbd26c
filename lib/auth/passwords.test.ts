import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

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
    for (const bad of ['v3:9:', 'v3:21:', 'v3:40:', 'v3:x:', 'v3::']) {
      expect(await verifyPassword('correct horse', stored.replace('v3:10:', bad))).toBe(false);
    }
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
