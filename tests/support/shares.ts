import { call } from './http';

export type ShareFiles = Record<string, Buffer>;

export interface UploadOptions {
  note?: string;
  password?: string;
  expires_at?: string | null;
  max_downloads?: number | null;
  base?: string;
  /** Add the files to this published share (init with share_id). */
  shareId?: string;
  /** Skip complete (leave the upload pending). */
  noComplete?: boolean;
}

export interface InitFile {
  clientPath: string;
  relativePath: string;
  uploadId: string;
  storageKey: string;
  partCount: number;
}

/**
 * Runs the whole share upload protocol as a client would: capabilities, init, every part
 * (presigned PUT straight to S3 in direct mode, like a browser; /chunk in proxy mode), complete.
 */
export async function uploadShare(token: string, files: ShareFiles, opts: UploadOptions = {}) {
  const base = opts.base;
  const init = await call('POST', '/api/shares/upload/init', {
    token,
    base,
    body: {
      share_id: opts.shareId,
      note: opts.note,
      password: opts.password,
      expires_at: opts.expires_at,
      max_downloads: opts.max_downloads,
      files: Object.entries(files).map(([clientPath, data]) => ({ clientPath, size: data.length })),
    },
  });
  if (init.status !== 201) return { init, complete: null, share: null };
  const { groupId, mode, partSize } = init.json as { groupId: string; mode: 'direct' | 'proxy'; partSize: number };
  const parts: Record<string, { partNumber: number; etag: string }[]> = {};
  for (const f of init.json.files as InitFile[]) {
    const data = files[f.clientPath];
    parts[f.uploadId] = [];
    for (let n = 1; n <= f.partCount; n++) {
      const piece = data.subarray((n - 1) * partSize, n * partSize);
      const r = await putPart(token, { groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: n }, piece, mode, base);
      if (r.status !== 200) throw new Error(`part ${n} of ${f.clientPath}: ${r.status} ${r.text}`);
      parts[f.uploadId].push({ partNumber: n, etag: r.etag });
    }
  }
  if (opts.noComplete) return { init, complete: null, share: null };
  const complete = await call('POST', '/api/shares/upload/complete', {
    token,
    base,
    body: {
      groupId,
      files: (init.json.files as InitFile[]).map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: parts[f.uploadId] })),
    },
  });
  return { init, complete, share: complete.status === 200 ? complete.json.share : null };
}

export async function putPart(
  token: string,
  ref: { groupId: string; uploadId: string; storageKey: string; partNumber: number },
  piece: Buffer,
  mode: 'direct' | 'proxy',
  base?: string,
): Promise<{ status: number; etag: string; text: string }> {
  if (mode === 'direct') {
    const u = await call('POST', '/api/shares/upload/part-url', { token, base, body: ref });
    if (u.status !== 200) return { status: u.status, etag: '', text: u.text };
    const res = await fetch(u.json.url, {
      method: 'PUT',
      headers: { ...(u.json.headers ?? {}), Origin: 'http://localhost' },
      body: new Uint8Array(piece),
    });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag') ?? '', text };
  }
  const q = new URLSearchParams({ ...ref, partNumber: String(ref.partNumber) });
  const r = await call('PUT', `/api/shares/upload/chunk?${q}`, { token, base, raw: new Uint8Array(piece) });
  return { status: r.status, etag: r.json?.etag ?? '', text: r.text };
}

/**
 * Makes a share expire: the API refuses a past expires_at, so it gets one a moment ahead (more if
 * the server was too slow to take that as future), and this returns once that moment has passed.
 */
export async function expireShare(token: string, id: string, opts: { base?: string; body?: Record<string, unknown> } = {}) {
  for (let ahead = 500; ; ahead *= 2) {
    const at = Date.now() + ahead;
    const r = await call('PATCH', `/api/shares/${id}`, { token, base: opts.base, body: { ...opts.body, expires_at: new Date(at).toISOString() } });
    if (r.status === 200) {
      while (Date.now() <= at) await new Promise((resolve) => setTimeout(resolve, Math.max(10, at - Date.now() + 5)));
      return r;
    }
    if (r.status !== 400 || ahead > 60_000) throw new Error(`PATCH expires_at: ${r.status} ${r.text}`);
  }
}
