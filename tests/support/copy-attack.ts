import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { StorageDriver } from '@/lib/storage/types';
import { call } from './http';
import { TEST_ADMIN_TOKEN } from './server';
import { uploadShare, type InitFile } from './shares';

/** A raw PUT: fetch would not send an empty body with an explicit Content-Length. */
export function rawPut(url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // A fresh connection per PUT (agent: false): a store that refused a body may close the socket,
    // and a pooled keep-alive socket would turn the next request into a reset.
    const req = http.request(url, { method: 'PUT', agent: false, headers: { ...headers, 'Content-Length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function memberToken(base: string): Promise<string> {
  const username = `a${randomBytes(5).toString('hex')}`;
  const c = await call('POST', '/api/users', { base, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
  if (c.status !== 201) throw new Error(`create user: ${c.status} ${c.text}`);
  return (await call('POST', '/api/auth/login', { base, body: { username, password: 'long enough' } })).json.token;
}

/**
 * The attack of the review: a member's upload whose parts carry `x-amz-copy-source` naming
 * another member's password-protected share, or an object outside `shared/`. In direct mode
 * the header goes on the presigned URL; in proxy mode to /chunk. Returns what came of it.
 */
export async function attemptCopyAttack(base: string, store: StorageDriver, bucket: string) {
  const secret = Buffer.from(`victim secret ${randomBytes(12).toString('hex')}`);
  const { share } = await uploadShare(await memberToken(base), { 'private/diary.txt': secret }, { base, password: 'victim-password' });
  if (!share) throw new Error('the victim could not upload');
  const outside = Buffer.from(`outside the prefix ${randomBytes(12).toString('hex')}`);
  const outsideKey = `secret-${randomBytes(4).toString('hex')}/outside.bin`;
  await store.put(outsideKey, outside);

  const token = await memberToken(base);
  const targets = [
    { clientPath: 'same-size.bin', size: secret.length, source: `shared/${share.id}/private/diary.txt`, bytes: secret },
    { clientPath: 'zero.bin', size: 0, source: `shared/${share.id}/private/diary.txt`, bytes: secret },
    { clientPath: 'outside.bin', size: outside.length, source: outsideKey, bytes: outside },
  ];
  const init = await call('POST', '/api/shares/upload/init', {
    base,
    token,
    body: { files: targets.map((t) => ({ clientPath: t.clientPath, size: t.size })) },
  });
  if (init.status !== 201) throw new Error(`init: ${init.status} ${init.text}`);
  const groupId = init.json.groupId as string;
  const files = init.json.files as InitFile[];
  const target = (clientPath: string) => targets.find((t) => t.clientPath === clientPath)!;

  const answers: { mode: 'direct' | 'proxy'; status: number; text: string }[] = [];
  const parts: Record<string, { partNumber: number; etag: string }[]> = {};
  for (const f of files) {
    const t = target(f.clientPath);
    const ref = { groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    const copy = { 'x-amz-copy-source': `${bucket}/${t.source}` };
    const filler = Buffer.alloc(t.size, 0x2e);
    const signed = await call('POST', '/api/shares/upload/part-url', { base, token, body: ref });
    if (signed.status === 200) {
      const r = await rawPut(signed.json.url, { ...(signed.json.headers ?? {}), ...copy }, filler);
      answers.push({ mode: 'direct', ...r });
      const etag = /<ETag>([^<]+)<\/ETag>/.exec(r.text)?.[1];
      if (r.status === 200) parts[f.uploadId] = [{ partNumber: 1, etag: etag ? `"${etag.replace(/"/g, '')}"` : '' }];
    } else {
      if (signed.status !== 400) throw new Error(`part-url: ${signed.status} ${signed.text}`);
      const q = new URLSearchParams({ ...ref, partNumber: '1' });
      const r = await call('PUT', `/api/shares/upload/chunk?${q}`, { base, token, raw: new Uint8Array(filler), headers: copy });
      answers.push({ mode: 'proxy', status: r.status, text: r.text });
      if (r.status === 200) parts[f.uploadId] = [{ partNumber: 1, etag: r.json.etag }];
    }
  }
  // What the store holds for the attacker, as the status route reports it (a size oracle).
  const status = await call('POST', '/api/shares/upload/status', { base, token, body: { groupId } });
  const storedSizes = (status.json.files as { clientPath: string; parts: { size: number }[] }[]).map((f) => ({
    declared: target(f.clientPath).size,
    stored: f.parts.map((p) => p.size),
  }));
  const complete = await call('POST', '/api/shares/upload/complete', {
    base,
    token,
    body: { groupId, files: files.map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: parts[f.uploadId] ?? [] })) },
  });
  const leaked: string[] = [];
  if (complete.status === 200) {
    for (const item of complete.json.share.items as { url: string; relative_path: string }[]) {
      const got = Buffer.from(await (await fetch(base + item.url)).arrayBuffer());
      if (got.length && got.equals(target(item.relative_path).bytes)) leaked.push(item.relative_path);
    }
  }
  return { answers, storedSizes, completeStatus: complete.status, leaked };
}
