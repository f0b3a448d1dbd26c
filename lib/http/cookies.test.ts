import { describe, expect, it } from 'vitest';
import { cookieValue, countCookies, parseCookies, tossedCookieClears } from './cookies';

describe('cookieValue', () => {
  it('finds the same value parseCookies does (the first of a name), and nothing for a name that is only a suffix or a value', () => {
    for (const header of ['a=1; x_a=2; a=3', ' a = 1 ;b=2', 'x_a=2; b=a=1; a=1', 'b=2;a=1', 'a=1']) {
      expect(cookieValue(header, 'a'), header).toBe(parseCookies(header).a);
    }
    expect(cookieValue('x_a=2; b=a=1', 'a')).toBeUndefined();
    expect(cookieValue('a', 'a')).toBeUndefined();
    expect(cookieValue(undefined, 'a')).toBeUndefined();
    expect(cookieValue('=1; a=2', 'a')).toBe('2');
    expect(cookieValue('a=%41', 'a')).toBe('%41');
  });
});

describe('parseCookies', () => {
  it('keeps the first of a name, percent-decodes what decodes and keeps what does not', () => {
    expect(parseCookies('a=1; b=x%20y; a=2; c=%E0%A4%A')).toMatchObject({ a: '1', b: 'x y', c: '%E0%A4%A' });
    expect(parseCookies(null)).toEqual({});
    expect(parseCookies('')).toEqual({});
  });

  it('reads a cookie named after an Object property as a cookie, and an absent one as absent', () => {
    expect(parseCookies('constructor=1').constructor).toBe('1');
    expect(parseCookies('a=1').toString).toBeUndefined();
  });
});

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
