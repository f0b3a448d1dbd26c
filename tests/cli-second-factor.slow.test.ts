/**
 * The CLI and issue 42: `htmls login` asks for the code when two-factor sign-in is on (HTMLS_CODE),
 * and `htmls logout --all` ends every other session of the account too.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { htmls } from './support/cli';
import { createMember } from './support/members';
import { tempDir } from './support/server';

useFileServer();

const codeAt = (secret: string, at = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
const me = (token: string) => call('GET', '/api/auth/me', { token });

describe('htmls login / logout --all with a second factor', () => {
  it('signs in with HTMLS_CODE, refuses a wrong one, and logout --all ends the browser sessions too', async () => {
    const m = await createMember();
    const setup = await call('POST', '/api/auth/totp/setup', { token: m.token, body: {} });
    expect((await call('POST', '/api/auth/totp/enable', { token: m.token, body: { code: codeAt(setup.json.secret) } })).status).toBe(200);

    const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-2fa-'), HTMLS_PASSWORD: m.password };
    const wrong = await htmls(['login', '--url', baseUrl(), '--username', m.username], { ...env, HTMLS_CODE: String((Number(codeAt(setup.json.secret)) + 1) % 1e6).padStart(6, '0') });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/Wrong code/);

    const login = await htmls(['login', '--url', baseUrl(), '--username', m.username], { ...env, HTMLS_CODE: codeAt(setup.json.secret, Date.now() + 30_000) });
    expect(login.code, login.stderr).toBe(0);
    expect((await htmls(['me'], env)).stdout).toContain(m.username);

    expect((await me(m.token)).status).toBe(200);
    const out = await htmls(['logout', '--all'], env);
    expect(out.code, out.stderr).toBe(0);
    expect((await me(m.token)).status).toBe(401);
    expect((await htmls(['me'], env)).code).toBe(3);
  });
});
