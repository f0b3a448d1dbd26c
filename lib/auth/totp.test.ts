import { describe, expect, it } from 'vitest';
import { mustHaveSecondFactor } from './sign-in';
import { newTotpSecret, openTotpSecret, sealTotpSecret, totpCodeAt, totpStepOf } from './totp';

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" (base32 below), 8-digit codes
// there; their last 6 digits are the 6-digit codes.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('totpStepOf (the one decision the TOTP library makes)', () => {
  it('matches the RFC 6238 test vectors', () => {
    expect(totpCodeAt(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCodeAt(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpStepOf(RFC_SECRET, '081804', 1_111_111_109_000)).toBe(Math.floor(1_111_111_109 / 30));
  });

  it('takes the step before and after (±1), not two away', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(totpStepOf(secret, totpCodeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(totpStepOf(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(totpStepOf(secret, totpCodeAt(secret, now + 30_000), now)).toBe(step + 1);
    expect(totpStepOf(secret, totpCodeAt(secret, now - 60_000), now)).toBeNull();
    expect(totpStepOf(secret, totpCodeAt(secret, now + 60_000), now)).toBeNull();
  });

  it('answers null — never something truthy — for a wrong value of every kind', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const right = totpCodeAt(secret, now);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (const v of [wrong, '', '12345', '1234567', ` ${right}`, Number(right), { code: right }, [right], Promise.resolve(right), null, undefined, true]) {
      expect(totpStepOf(secret, v, now)).toBeNull();
    }
    // Another secret's right code is a wrong code.
    expect(totpStepOf(newTotpSecret(), right, now)).toBeNull();
  });
});

describe('the secret at rest', () => {
  it('opens only with the server secret it was sealed with', () => {
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(secret, 'a'.repeat(32));
    expect(sealed).not.toContain(secret);
    expect(openTotpSecret(sealed, 'a'.repeat(32))).toBe(secret);
    expect(openTotpSecret(sealed, 'b'.repeat(32))).toBeNull();
    expect(openTotpSecret(sealed.slice(0, -2), 'a'.repeat(32))).toBeNull();
    expect(openTotpSecret('garbage', 'a'.repeat(32))).toBeNull();
  });
});

describe('REQUIRE_2FA', () => {
  it('asks admins (role) under admins, everyone under all, nobody under off', () => {
    expect(mustHaveSecondFactor({ require2fa: 'admins' }, { role: 'admin' })).toBe(true);
    expect(mustHaveSecondFactor({ require2fa: 'admins' }, { role: 'member' })).toBe(false);
    expect(mustHaveSecondFactor({ require2fa: 'all' }, { role: 'member' })).toBe(true);
    expect(mustHaveSecondFactor({ require2fa: 'off' }, { role: 'admin' })).toBe(false);
  });
});
