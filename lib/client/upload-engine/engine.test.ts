import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { runShareUpload } from './engine';
import { planParts, splitByStatus } from './plan';
import { backoffWithJitter, isRetryable } from './retry';
import type { PutRequest, UploadProgress, UploadSource, UploadTransport } from './types';

/**
 * An in-memory stand-in for the server's upload protocol (a unit test of the engine alone; the
 * real server is exercised by tests/cli.slow.test.ts and the Playwright suite). Parts are byte
 * arrays; `fail` decides, per PUT, whether it fails and how.
 */
function fakeServer(opts: { mode?: 'direct' | 'proxy'; partSize?: number; parallel?: number; fail?: (url: string, attempt: number) => ApiError | 'hang' | null } = {}) {
  const mode = opts.mode ?? 'proxy';
  const partSize = opts.partSize ?? 4;
  const parallel = opts.parallel ?? (mode === 'direct' ? 3 : 1);
  const parts = new Map<string, Uint8Array>();
  const attempts = new Map<string, number>();
  const log: string[] = [];
  let files: { clientPath: string; relativePath: string; uploadId: string; storageKey: string; partCount: number; size: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const transport: UploadTransport<Uint8Array> = {
    async json<T>(method: string, path: string, body?: unknown): Promise<T> {
      log.push(`${method} ${path}`);
      const b = body as Record<string, unknown>;
      if (path.endsWith('/capabilities')) return { mode, partSize, parallel, maxRetries: 4, maxFiles: 500, maxTotalBytes: 1e12 } as T;
      if (path.endsWith('/init')) {
        files = (b.files as { clientPath: string; size: number }[]).map((f, i) => ({
          clientPath: f.clientPath,
          relativePath: f.clientPath,
          uploadId: `u${i}`,
          storageKey: `shared/g/${f.clientPath}`,
          partCount: Math.max(1, Math.ceil(f.size / partSize)),
          size: f.size,
        }));
        return { groupId: 'g', mode, partSize, files } as T;
      }
      if (path.endsWith('/status')) {
        return {
          groupId: 'g',
          mode,
          partSize,
          files: files.map((f) => ({
            ...f,
            completed: false,
            parts: [...parts].filter(([k]) => k.startsWith(`${f.uploadId}:`)).map(([k, v]) => ({ partNumber: Number(k.split(':')[1]), size: v.length, etag: `e-${k}` })),
          })),
        } as T;
      }
      if (path.endsWith('/part-url')) return { url: `s3://${b.uploadId}:${b.partNumber}`, expiresAt: '' } as T;
      if (path.endsWith('/complete')) {
        const out = (b.files as { uploadId: string; parts: { partNumber: number }[] }[]).map((f) => {
          const file = files.find((x) => x.uploadId === f.uploadId)!;
          const bytes = f.parts.flatMap((p) => [...(parts.get(`${f.uploadId}:${p.partNumber}`) ?? [])]);
          if (bytes.length !== file.size) throw new ApiError(409, 'upload_not_complete', 'missing');
          return { path: file.clientPath, bytes };
        });
        return { share: { id: 'g', items: out } } as T;
      }
      if (path.endsWith('/abort')) return { ok: true } as T;
      throw new Error(`unexpected ${path}`);
    },
    async put(req: PutRequest<Uint8Array>) {
      const key = req.api ? `${new URL(req.url, 'http://x').searchParams.get('uploadId')}:${new URL(req.url, 'http://x').searchParams.get('partNumber')}` : req.url.slice(5);
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      log.push(`PUT ${key}`);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        // A real transport listens to its attempt's signal, and lets go of it when done.
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(new ApiError(0, 'network_error', 'aborted'));
          if (req.signal.aborted) return onAbort();
          req.signal.addEventListener('abort', onAbort, { once: true });
          const failure = opts.fail?.(req.url, n) ?? null;
          if (failure === 'hang') return; // no byte ever moves
          setTimeout(() => {
            req.signal.removeEventListener('abort', onAbort);
            if (failure) return reject(failure);
            req.onProgress(Math.floor(req.length / 2));
            req.onProgress(req.length);
            resolve();
          }, 1);
        });
        parts.set(key, req.body);
        return { text: JSON.stringify({ etag: `e-${key}` }), etag: `e-${key}` };
      } finally {
        inFlight--;
      }
    },
  };
  transport.prefetch = (body) => log.push(`prefetch ${new TextDecoder().decode(body)}`);
  transport.dropPrefetched = () => log.push('drop prefetched');
  return { transport, parts, attempts, log, maxInFlight: () => maxInFlight };
}

const source = (clientPath: string, text: string): UploadSource<Uint8Array> => {
  const bytes = new TextEncoder().encode(text);
  return { clientPath, size: bytes.length, slice: (s, e) => bytes.slice(s, e) };
};
const noWait = () => 0;
const text = (share: unknown, path: string) =>
  new TextDecoder().decode(new Uint8Array((share as { items: { path: string; bytes: number[] }[] }).items.find((i) => i.path === path)!.bytes));

describe('planParts / splitByStatus', () => {
  const files = [
    { clientPath: 'a', relativePath: 'a', uploadId: 'ua', storageKey: 'k/a', partCount: 3 },
    { clientPath: 'b', relativePath: 'b', uploadId: 'ub', storageKey: 'k/b', partCount: 1 },
  ];
  it('cuts each file into partSize slices, the last one shorter, an empty file into one empty part', () => {
    const jobs = planParts(files, new Map([['a', 25], ['b', 0]]), 10);
    expect(jobs.map((j) => [j.file.clientPath, j.partNumber, j.start, j.end])).toEqual([
      ['a', 1, 0, 10],
      ['a', 2, 10, 20],
      ['a', 3, 20, 25],
      ['b', 1, 0, 0],
    ]);
  });
  it('keeps parts the store holds at the planned size, resends a part cut short, counts a merged file whole', () => {
    const jobs = planParts(files, new Map([['a', 25], ['b', 7]]), 10);
    const status = [
      { ...files[0], size: 25, completed: false, parts: [{ partNumber: 1, size: 10, etag: 'e1' }, { partNumber: 2, size: 4, etag: 'short' }] },
      { ...files[1], size: 7, completed: true, parts: [] },
    ];
    const { stored, todo } = splitByStatus(jobs, status);
    expect(todo.map((j) => `${j.file.clientPath}${j.partNumber}`)).toEqual(['a2', 'a3']);
    expect([...stored.values()]).toEqual([{ partNumber: 1, etag: 'e1' }, { partNumber: 1, etag: '' }]);
  });
});

describe('retry rules', () => {
  it('backs off exponentially up to 30 s, with jitter between half and all of it', () => {
    expect(backoffWithJitter(1, () => 0)).toBe(500);
    expect(backoffWithJitter(1, () => 1)).toBe(1000);
    expect(backoffWithJitter(3, () => 1)).toBe(4000);
    expect(backoffWithJitter(10, () => 1)).toBe(30_000);
  });
  it('retries the network, stalls, 408, 429 and 5xx; never a refusal or an unreadable file', () => {
    expect([0, 408, 429, 500, 502, 503].every((s) => isRetryable(new ApiError(s, 'http_error', '')))).toBe(true);
    expect([400, 401, 404, 409, 413, -1].some((s) => isRetryable(new ApiError(s, 'http_error', '')))).toBe(false);
  });
});

describe('runShareUpload', () => {
  it('uploads every part in order of files, completes with every ETag, and reports byte progress up to the total', async () => {
    const s = fakeServer();
    const seen: UploadProgress[] = [];
    const share = await runShareUpload(s.transport, [source('a.txt', 'hello world'), source('d/b.txt', 'xy')], { onProgress: (p) => seen.push(p) });
    expect(text(share, 'a.txt')).toBe('hello world');
    expect(text(share, 'd/b.txt')).toBe('xy');
    expect(s.log.filter((l) => l.startsWith('PUT'))).toEqual(['PUT u0:1', 'PUT u0:2', 'PUT u0:3', 'PUT u1:1']);
    const last = seen[seen.length - 1];
    expect([last.stage, last.loaded, last.total]).toEqual(['finishing', 13, 13]);
    expect(last.files.every((f) => f.done)).toBe(true);
    expect(seen.some((p) => p.loaded > 0 && p.loaded < 13)).toBe(true);
  });

  it('names each next part to the transport before the part ahead of it is sent (its read overlaps the round trip)', async () => {
    const s = fakeServer();
    await runShareUpload(s.transport, [source('a.txt', 'hello world'), source('d/b.txt', 'xy')]);
    expect(s.log.filter((l) => l.startsWith('PUT') || l.includes('prefetch'))).toEqual([
      'prefetch o wo',
      'PUT u0:1',
      'prefetch rld',
      'PUT u0:2',
      'prefetch xy',
      'PUT u0:3',
      'PUT u1:1',
      'drop prefetched',
    ]);
  });

  it('lets go of what was read ahead when the parts stop on a failure too', async () => {
    const s = fakeServer({ fail: (url) => (url.includes('partNumber=2') ? new ApiError(403, 'forbidden', 'no') : null) });
    await expect(runShareUpload(s.transport, [source('a.txt', 'hello world')])).rejects.toMatchObject({ code: 'forbidden' });
    const seen = s.log.filter((l) => l.startsWith('PUT') || l.includes('prefetch'));
    expect(seen.slice(0, 3)).toEqual(['prefetch o wo', 'PUT u0:1', 'prefetch rld']);
    expect(seen.at(-1)).toBe('drop prefetched');
  });

  it('a progress report read later still tells its own moment, file by file', async () => {
    const s = fakeServer();
    const seen: UploadProgress[] = [];
    await runShareUpload(s.transport, [source('a.txt', 'hello world'), source('d/b.txt', 'xy')], { onProgress: (p) => seen.push(p) });
    // Read only now, after the upload: the first report had nothing loaded, the last everything.
    expect(seen[0].files.map((f) => [f.clientPath, f.loaded, f.done])).toEqual([
      ['a.txt', 0, false],
      ['d/b.txt', 0, false],
    ]);
    const firstDone = seen.find((p) => p.files[0].done)!;
    expect(firstDone.files.map((f) => [f.loaded, f.done])).toEqual([
      [11, true],
      [0, false],
    ]);
    // Bytes of a part in flight count for its file, as for the whole.
    const midway = seen.find((p) => p.loaded > 0 && !p.files[0].done)!;
    expect(midway.files[0].loaded).toBe(midway.loaded);
    expect(JSON.parse(JSON.stringify(seen.at(-1))).files).toHaveLength(2);
  });

  it('sends `parallel` parts at once in direct mode, one at a time through the server', async () => {
    const direct = fakeServer({ mode: 'direct', parallel: 3 });
    await runShareUpload(direct.transport, [source('a', 'x'.repeat(40))]);
    expect(direct.maxInFlight()).toBe(3);
    const proxy = fakeServer({ mode: 'proxy', parallel: 1 });
    await runShareUpload(proxy.transport, [source('a', 'x'.repeat(40))]);
    expect(proxy.maxInFlight()).toBe(1);
  });

  it('retries a failing part up to 4 times, rolling its progress back', async () => {
    const s = fakeServer({ fail: (url, n) => (url.includes('partNumber=2') && n <= 4 ? new ApiError(0, 'network_error', 'dropped') : null) });
    const share = await runShareUpload(s.transport, [source('a', 'abcdefghij')], { backoffMs: noWait });
    expect(text(share, 'a')).toBe('abcdefghij');
    expect(s.attempts.get('u0:2')).toBe(5);
  });

  it('gives up after 4 retries and keeps the group on the server, to be resumed', async () => {
    const s = fakeServer({ fail: (url) => (url.includes('partNumber=2') ? new ApiError(503, 'storage_unavailable', 'down') : null) });
    let abandoned = false;
    await expect(runShareUpload(s.transport, [source('a', 'abcdefghij')], { backoffMs: noWait, onAbandoned: () => (abandoned = true) })).rejects.toMatchObject({
      code: 'storage_unavailable',
    });
    expect(s.attempts.get('u0:2')).toBe(5);
    expect(s.log).not.toContain('POST /api/shares/upload/abort');
    expect(abandoned).toBe(false);
  });

  it('a fatal failure stops the other parts in flight and aborts the group', async () => {
    const s = fakeServer({ mode: 'direct', parallel: 3, fail: (url) => (url.endsWith(':2') ? new ApiError(403, 'forbidden', 'no') : url.endsWith(':1') || url.endsWith(':3') ? 'hang' : null) });
    let abandoned = '';
    await expect(runShareUpload(s.transport, [source('a', 'x'.repeat(40))], { onAbandoned: (g) => (abandoned = g) })).rejects.toMatchObject({ code: 'forbidden' });
    expect(s.log.filter((l) => l.startsWith('PUT'))).toEqual(['PUT u0:1', 'PUT u0:2', 'PUT u0:3']);
    expect(s.log).toContain('POST /api/shares/upload/abort');
    expect(abandoned).toBe('g');
  });

  it('drops an attempt that moves no byte for the stall time, and sends the part again', async () => {
    const s = fakeServer({ fail: (url, n) => (url.includes('partNumber=1') && n === 1 ? 'hang' : null) });
    const share = await runShareUpload(s.transport, [source('a', 'abc')], { stallMs: 50, backoffMs: noWait });
    expect(text(share, 'a')).toBe('abc');
    expect(s.attempts.get('u0:1')).toBe(2);
  });

  it('resumes from upload/status: only the missing parts are sent', async () => {
    const files = [source('a', 'abcdefghij'), source('b', 'kl')];
    // A first run stored two parts of a, then the tab was closed.
    const first = fakeServer();
    const controller = new AbortController();
    await expect(
      runShareUpload(first.transport, files, {
        abortOnCancel: false,
        signal: controller.signal,
        onPartStored: (_f, n) => n === 2 && controller.abort(),
      }),
    ).rejects.toMatchObject({ code: 'cancelled' });
    expect(first.log).not.toContain('POST /api/shares/upload/abort');
    first.log.length = 0;
    let plan;
    const share = await runShareUpload(first.transport, files, { resumeGroupId: 'g', onPlan: (p) => void (plan = p) });
    expect(first.log.filter((l) => l.startsWith('PUT'))).toEqual(['PUT u0:3', 'PUT u1:1']);
    expect(plan).toMatchObject({ resumed: true, totalParts: 4, storedParts: 2 });
    expect(text(share, 'a')).toBe('abcdefghij');
  });

  it('refuses to resume with files of another size', async () => {
    const s = fakeServer();
    const c = new AbortController();
    await runShareUpload(s.transport, [source('a', 'abcdefgh')], { abortOnCancel: false, signal: c.signal, onPartStored: () => c.abort() }).catch(() => {});
    await expect(runShareUpload(s.transport, [source('a', 'abc')], { resumeGroupId: 'g' })).rejects.toMatchObject({ code: 'files_changed' });
  });

  it('a cancel aborts the group by default', async () => {
    const s = fakeServer({ fail: () => 'hang' });
    const c = new AbortController();
    const run = runShareUpload(s.transport, [source('a', 'abc')], { signal: c.signal });
    while (!s.log.some((l) => l.startsWith('PUT'))) await new Promise((r) => setTimeout(r, 1));
    c.abort();
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(s.log).toContain('POST /api/shares/upload/abort');
  });

  it('96 parts on one signal: no listener piles up (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const s = fakeServer({ mode: 'direct', parallel: 3, partSize: 1 });
      const c = new AbortController();
      await runShareUpload(s.transport, [source('a', 'x'.repeat(96))], { signal: c.signal });
      expect(s.log.filter((l) => l.startsWith('PUT'))).toHaveLength(96);
      await new Promise((r) => setTimeout(r, 10));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
