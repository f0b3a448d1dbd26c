import { call } from './http';

/** Makes an access token with the given session (a member's token, or an admin session's) and returns its secret. */
export async function makeToken(session: string, scopes: string[], extra: { name?: string; expires_at?: string | null } = {}): Promise<string> {
  const r = await call('POST', '/api/tokens', { token: session, body: { name: extra.name ?? `t-${scopes.join(',')}`, scopes, expires_at: extra.expires_at } });
  if (r.status !== 201) throw new Error(`token create failed: ${r.status} ${r.text}`);
  return r.json.secret as string;
}
