import { describe, expect, it } from 'vitest';
import { countCookies, parseCookies, tossedCookieClears } from './cookies';

describe('session cookie tossing helpers', () => {
  it('counts every cookie of a name, where parseCookies keeps only the first', () => {
    const header = 'htmls_user_session=attacker; other=1; htmls_user_session=victim';
    expect(countCookies(header, 'htmls_user_session')).toBe(2);
    expect(countCookies(header, 'other')).toBe(1);
    expect(countCookies(null, 'x')).toBe(0);
    expect(parseCookies(header).htmls_user_session).toBe('attacker');
  });

  it('clears both cookies on every path prefix, host-only and on each parent domain', () => {
    const out = tossedCookieClears('files.example.com:443', '/api/shares/upload/init?x=1');
    for (const p of ['/', '/api', '/api/shares', '/api/shares/upload', '/api/shares/upload/init']) {
      expect(out).toContain(`htmls_user_session=; Path=${p}; Max-Age=0; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
      expect(out).toContain(`htmls_user_session=; Path=${p}; Max-Age=0; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=example.com`);
      expect(out).toContain(`htmls_admin_session=; Path=${p}; Max-Age=0; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=files.example.com`);
    }
    // An address has no parent domains.
    expect(tossedCookieClears('127.0.0.1:3000', '/api').every((c) => !c.includes('Domain='))).toBe(true);
  });
});
