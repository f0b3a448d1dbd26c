import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../runtime';
import { flowCookie, readFlow, type OidcFlow } from './flow-cookie';

describe('the flow cookie', () => {
  const rt = { serverSecret: 'a-server-secret-of-at-least-32-characters' } as Runtime;
  const flow: OidcFlow = { state: 's', nonce: 'n', verifier: 'v', returnTo: '/files', linkUserId: null, expiresAt: Date.now() + 60_000 };
  const valueOf = (setCookie: string) => setCookie.split(';')[0];

  it('reads back what it signed, and nothing edited, expired or doubled', async () => {
    const cookie = valueOf(await flowCookie(rt, flow, false));
    expect(await readFlow(rt, cookie)).toEqual(flow);
    // Linking someone else's account by editing the cookie: the signature no longer matches.
    const [name, value] = cookie.split('=');
    const [payload, mac] = decodeURIComponent(value).split('.');
    const edited = Buffer.from(JSON.stringify({ ...flow, linkUserId: 'victim' })).toString('base64url');
    expect(await readFlow(rt, `${name}=${edited}.${mac}`)).toBeNull();
    // Its first character changed (a MAC starting with "x" kept "x…" itself: 1 run in 64 failed).
    expect(await readFlow(rt, `${name}=${payload}.${mac[0] === 'x' ? 'y' : 'x'}${mac.slice(1)}`)).toBeNull();
    expect(await readFlow(rt, `${name}=${payload}`)).toBeNull();
    expect(await readFlow(rt, cookie, flow.expiresAt)).toBeNull();
    expect(await readFlow(rt, `${cookie}; ${cookie}`)).toBeNull();
    expect(await readFlow({ serverSecret: 'another-server-secret-of-32-characters' } as Runtime, cookie)).toBeNull();
    expect(await readFlow(rt, undefined)).toBeNull();
  });
});
