import { describe, expect, it } from 'vitest';
import { weakTokenReason } from './weak-token';

describe('weakTokenReason', () => {
  it.each(['Password-Password-1', 'my-123456-token-x', 'aaaaaaaaaaaaaaaaaaaa', 'abababab12121212', 'Correct Horse Battery Staple', 'qwerty-uiop-asdfgh'])('refuses %s', (t) => {
    expect(weakTokenReason(t)).not.toBeNull();
  });
  it.each(['brand-new-admin-token', 'third-admin-token', 'k3v9-Qm2x-Lr7p-Zt4w'])('accepts %s', (t) => {
    expect(weakTokenReason(t)).toBeNull();
  });
});
