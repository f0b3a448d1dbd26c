/**
 * Issue 22, item 12 (the review's informational findings, decided): a boot warning when
 * TRUST_PROXY meets HOST=0.0.0.0; an expired or outdated session sent as Bearer is refused
 * without counting as a guess at the Admin Token; invisible and space look-alike characters are
 * refused in share paths; PDFs from shares are attachments under a sandbox CSP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { call } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { uploadShare } from './support/shares';

const FIRST_TOKEN = 'first-admin-token-0123456789';
const SECOND_TOKEN = 'second-admin-token-0123456789';

let env: Record<string, string | undefined>;
let first: InProcessServer;
let server: InProcessServer;
let oldSession: string;

beforeAll(async () => {
  env = await migratedServiceEnv();
  // Listening on every interface behind a trusted proxy: the boot warns. (Both services run in
  // this process, one after the other: output() has a service's start-up lines and warnings.)
  first = await startInProcess({ ...env, HOST: '0.0.0.0', TRUST_PROXY: '1', ADMIN_TOKEN: FIRST_TOKEN });
  const login = await call('POST', '/api/auth/login', { base: first.url, body: { token: FIRST_TOKEN } });
  expect(login.status).toBe(200);
  oldSession = login.json.token;
  await first.stop();
  // The same data under a new emergency Admin Token: the old admin session is outdated.
  server = await startInProcess({ ...env, HOST: '127.0.0.1', TRUST_PROXY: '1', ADMIN_TOKEN: SECOND_TOKEN });
});
afterAll(() => server?.stop());

describe('TRUST_PROXY and HOST', () => {
  it('boot warns when TRUST_PROXY is set and HOST listens on every interface, not when HOST is loopback', () => {
    expect(first.output()).toMatch(/WARNING: TRUST_PROXY is set and HOST=0\.0\.0\.0/);
    expect(server.output()).not.toContain('WARNING: TRUST_PROXY');
  });
});

describe('Bearer polling with a session that no longer counts', () => {
  it('GET /api/auth/me — 15 polls with an outdated session are 401, not a lockout; the right token still signs in from that address', async () => {
    const ip = '10.88.0.1';
    for (let i = 0; i < 15; i++) {
      const r = await call('GET', '/api/auth/me', { base: server.url, ip, token: oldSession });
      expect([r.status, r.json.code]).toEqual([401, 'unauthenticated']);
    }
    expect((await call('POST', '/api/auth/login', { base: server.url, ip, body: { token: SECOND_TOKEN } })).status).toBe(200);
  });

  it('GET /api/auth/me — made-up Bearer tokens still count: the 11th is 429', async () => {
    const ip = '10.88.0.2';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('GET', '/api/auth/me', { base: server.url, ip, token: `guess-${i}-${'x'.repeat(30)}` })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});

describe('share paths and types', () => {
  it.each(['braille\u2800blank.txt', 'ogham\u1680space.txt', '\u{e0001}tagged.txt'])('POST /api/shares/upload/init — refuses the look-alike name %j with 400 invalid_path', async (clientPath) => {
    const r = await call('POST', '/api/shares/upload/init', { base: server.url, token: SECOND_TOKEN, body: { files: [{ clientPath, size: 1 }] } });
    expect([r.status, r.json.code]).toEqual([400, 'invalid_path']);
  });

  it('GET /f/:id/doc.pdf — a PDF is an attachment under a sandbox CSP, never a document on the console origin', async () => {
    const { share } = await uploadShare(SECOND_TOKEN, { 'doc.pdf': Buffer.from('%PDF-1.4\n1 0 obj<</OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF') }, { base: server.url });
    const r = await fetch(`${server.url}/f/${share.id}/doc.pdf`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(r.headers.get('content-security-policy')).toBe('sandbox');
    await r.arrayBuffer();
  });
});
