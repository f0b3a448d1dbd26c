import { randomBytes } from 'node:crypto';
import { TEST_ADMIN_TOKEN } from './server';
import { call, cookieFrom } from './http';

export interface Member {
  id: string;
  username: string;
  password: string;
  token: string;
  cookie: string;
}

export const uniqueName = (prefix = 'u') => `${prefix}${randomBytes(5).toString('hex')}`;

/** Registers a member through the public route and returns its session. */
export async function registerMember(extra: Record<string, unknown> = {}): Promise<Member> {
  const username = uniqueName();
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const r = await call('POST', '/api/auth/register', { body: { username, password, ...extra } });
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${r.text}`);
  return { id: r.json.user.id, username, password, token: r.json.token, cookie: cookieFrom(r.cookies, 'htmls_user_session') };
}

/**
 * Creates a member with an explicit quota through the administrator route (tests must not
 * depend on the default quota, which another test file may be changing), then signs in.
 */
export async function createMember(opts: { quota?: number; role?: 'member' | 'admin' } = {}): Promise<Member> {
  const username = uniqueName();
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const c = await call('POST', '/api/users', {
    token: TEST_ADMIN_TOKEN,
    body: { username, password, quota_bytes: opts.quota ?? 1024 ** 3, role: opts.role ?? 'member' },
  });
  if (c.status !== 201) throw new Error(`create user failed: ${c.status} ${c.text}`);
  const l = await call('POST', '/api/auth/login', { body: { username, password } });
  if (l.status !== 200) throw new Error(`login failed: ${l.status} ${l.text}`);
  return { id: c.json.user.id, username, password, token: l.json.token, cookie: cookieFrom(l.cookies, 'htmls_user_session') };
}
