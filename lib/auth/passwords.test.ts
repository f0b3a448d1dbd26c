import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('verifyPassword', () => {
  it('checks scrypt v2 hashes', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^v2:/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
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
