import { randomBytes } from 'node:crypto';
import { test } from '@playwright/test';
import { startServer, type RunningServer } from '../../tests/support/server';
import { freshServiceEnv } from '../../tests/support/services';

/** Seeds data through the real HTTP API, as the CLI would; pages are then visited in Chromium. */
let seedBase: string | undefined;
const base = () => seedBase ?? process.env.E2E_BASE_URL!;

/** A spec with a server of its own seeds there (undefined: back to the suite's server). */
export const seedAgainst = (url: string | undefined) => {
  seedBase = url;
};

/**
 * A server of the spec's own, with settings the suite's server does not have (a download mode,
 * the pseudo-locale, no ffmpeg), on a fresh database and store; the seed helpers use it while
 * the spec runs. Returns the running server (started in beforeAll, stopped in afterAll).
 */
export function useOwnServer(env: Record<string, string>): () => RunningServer {
  let server: RunningServer | undefined;
  test.beforeAll(async () => {
    server = await startServer({ ...(await freshServiceEnv()), ...env });
    seedAgainst(server.url);
  });
  test.afterAll(async () => {
    seedAgainst(undefined);
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the spec\'s own server is not running (used outside its tests?)');
    return server;
  };
}

async function api(method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(base() + path, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
      // Each call its own client address, so the suite never meets a rate limit.
      'X-Forwarded-For': `10.9.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`,
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export interface SeededMember {
  id: string;
  username: string;
  password: string;
  token: string;
}

export async function createMember(displayName?: string): Promise<SeededMember> {
  const username = `m${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const password = 'a good long password';
  await api('POST', '/api/users', {
    token: process.env.E2E_ADMIN_TOKEN,
    body: { username, password, quota_bytes: 1024 ** 3, ...(displayName ? { display_name: displayName } : {}) },
  });
  const { token, user } = await api('POST', '/api/auth/login', { body: { username, password } });
  return { id: user.id, username, password, token };
}

/** A complete share through init, parts (direct to the bucket or through /chunk) and complete. */
export async function createShare(
  token: string,
  files: Record<string, Buffer>,
  opts: { note?: string; password?: string; expires_at?: string; max_downloads?: number } = {},
) {
  const init = await api('POST', '/api/shares/upload/init', {
    token,
    body: { ...opts, files: Object.entries(files).map(([clientPath, data]) => ({ clientPath, size: data.length })) },
  });
  const done = [];
  for (const f of init.files as { clientPath: string; uploadId: string; storageKey: string; partCount: number }[]) {
    const ref = { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    const data = new Uint8Array(files[f.clientPath]);
    let etag: string;
    if (init.mode === 'direct') {
      const { url, headers } = await api('POST', '/api/shares/upload/part-url', { token, body: ref });
      const res = await fetch(url, { method: 'PUT', headers: headers ?? {}, body: data });
      etag = res.headers.get('etag') ?? '';
    } else {
      const q = new URLSearchParams({ ...ref, partNumber: '1' });
      const res = await fetch(`${base()}/api/shares/upload/chunk?${q}`, { method: 'PUT', headers: { Authorization: `Bearer ${token}` }, body: data });
      etag = (await res.json()).etag;
    }
    done.push({ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag }] });
  }
  const { share } = await api('POST', '/api/shares/upload/complete', { token, body: { groupId: init.groupId, files: done } });
  return share as { id: string; url: string };
}

export async function updateShare(token: string, id: string, body: Record<string, unknown>) {
  return api('PATCH', `/api/shares/${id}`, { token, body });
}

/** Makes a share expire: a past expires_at is refused, so it expires a moment ahead; returns once it has. */
export async function expireShare(token: string, id: string, body: Record<string, unknown> = {}) {
  for (let ahead = 500; ; ahead *= 2) {
    const at = Date.now() + ahead;
    try {
      await updateShare(token, id, { ...body, expires_at: new Date(at).toISOString() });
    } catch (e) {
      if (!String(e).includes(' 400 ') || ahead > 60_000) throw e;
      continue;
    }
    while (Date.now() <= at) await new Promise((resolve) => setTimeout(resolve, Math.max(10, at - Date.now() + 5)));
    return;
  }
}

/** A file request of the member's (POST /api/requests); its `url` is /r/<id>. */
export async function createFileRequest(token: string, body: Record<string, unknown>) {
  const { request } = await api('POST', '/api/requests', { token, body });
  return request as { id: string; url: string };
}
