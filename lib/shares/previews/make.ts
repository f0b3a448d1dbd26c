import 'server-only';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import type { StorageDriver } from '../../storage/types';

/**
 * The derived pictures of share items (docs/link-previews.md), made by the preview worker
 * (./worker.ts), never on a guest's request:
 *
 * - a video's poster frame and duration by ffmpeg, which reads the object through a loopback
 *   HTTP server that answers its Range requests from the store's ranged reads (fs and S3 alike),
 *   at most POSTER_READ_BUDGET bytes in all: the start, the moov atom wherever it is (an MP4
 *   written without faststart keeps it at the end) and the frames up to the first second —
 *   never the whole object;
 * - an image's thumbnail by sharp, from the whole object when it is at most THUMB_MAX_BYTES.
 *
 * Both give a JPEG of at most 1280 px (poster) or 640 px (thumbnail) on its longer side.
 */
export const POSTER_READ_BUDGET = 32 * 1024 * 1024;
export const THUMB_MAX_BYTES = 32 * 1024 * 1024;
/** ffmpeg is killed past this. */
const FFMPEG_TIMEOUT_MS = 30_000;
/** Its address space (prlimit, when the system has it): one decoding thread needs far less. */
const FFMPEG_MEMORY_BYTES = 1024 * 1024 * 1024;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const POSTER_EDGE = 1280;
/** The most one answer of the loopback server carries. */
const WINDOW = 256 * 1024;
const THUMB_EDGE = 640;
/** Demuxers ffmpeg may use: no playlist (HLS, concat…) that would open other URLs. */
const FORMATS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,mpeg,flv,ogg,asf';

export const THUMB_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);
export const isVideoType = (t: string) => t.toLowerCase().startsWith('video/');
export const isThumbType = (t: string) => THUMB_TYPES.has(t.toLowerCase().split(';')[0].trim());

export interface Picture {
  jpeg: Buffer;
  width: number;
  height: number;
  durationMs: number | null;
}

/** Whether `ffmpeg` runs here: checked once per path (FFMPEG_PATH), at the worker's start. */
const probes = new Map<string, Promise<boolean>>();
export function ffmpegAvailable(path: string | null): Promise<boolean> {
  if (!path) return Promise.resolve(false);
  let p = probes.get(path);
  if (!p) {
    p = new Promise<boolean>((resolve) => {
      const child = spawn(path, ['-hide_banner', '-version'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('exit', (code) => resolve(code === 0));
    });
    probes.set(path, p);
  }
  return p;
}

async function sharpOf() {
  // Loaded on first use: an instance that never makes a picture never loads the native module.
  const { default: sharp } = await import('sharp');
  sharp.concurrency(1);
  sharp.cache(false);
  return sharp;
}

/** A JPEG at most `edge` px on its longer side, with its size; EXIF orientation applied, metadata dropped. */
export async function toJpeg(input: Buffer, edge: number): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const sharp = await sharpOf();
  const { data, info } = await sharp(input, { limitInputPixels: 64_000_000, sequentialRead: true })
    .rotate()
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return { jpeg: data, width: info.width, height: info.height };
}

/** An image's thumbnail, or null when it is too large to read whole. */
export async function makeThumbnail(storage: StorageDriver, key: string, size: number): Promise<Picture | null> {
  if (size > THUMB_MAX_BYTES || size === 0) return null;
  const { body } = await storage.get(key);
  const bytes = await collect(body, THUMB_MAX_BYTES);
  return { ...(await toJpeg(bytes, THUMB_EDGE)), durationMs: null };
}

/** A video's poster frame (about one second in, else its first) and duration, or null when ffmpeg finds none. */
export async function makePoster(ffmpeg: string, storage: StorageDriver, key: string, size: number, signal?: AbortSignal): Promise<Picture | null> {
  const source = await rangedSource(storage, key, size, POSTER_READ_BUDGET);
  try {
    let run = await runFfmpeg(ffmpeg, source.url, 1, signal);
    if (!run.jpeg.length) run = await runFfmpeg(ffmpeg, source.url, 0, signal);
    if (!run.jpeg.length) return null;
    return { ...(await toJpeg(run.jpeg, POSTER_EDGE)), durationMs: run.durationMs };
  } finally {
    source.close();
  }
}

async function collect(body: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    n += chunk.length;
    if (n > max) {
      body.destroy();
      throw new Error('object larger than its bound');
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

interface RangedSource {
  url: string;
  close(): void;
  /** Bytes read from the store so far. */
  readonly bytesRead: number;
}

/**
 * `key` on a loopback port under a random path, Range requests answered from the store's ranged
 * reads; once `budget` bytes went out, every answer is cut (ffmpeg then stops with what it has).
 */
export async function rangedSource(storage: StorageDriver, key: string, size: number, budget: number): Promise<RangedSource> {
  const path = `/${randomBytes(16).toString('hex')}`;
  let sent = 0;
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    // At most WINDOW bytes an answer, which says so (206 with its Content-Range): what ffmpeg
    // leaves unread when it seeks elsewhere costs at most one window, not a socket's buffers;
    // it asks again from where the answer ended (-reconnect) for more.
    const end = Math.min(m && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1, start + WINDOW - 1);
    if (start >= size || start > end) {
      res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const headers = { 'Accept-Ranges': 'bytes', 'Content-Length': String(end - start + 1), 'Content-Type': 'application/octet-stream' };
    res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` });
    if (req.method === 'HEAD' || sent >= budget) {
      if (req.method === 'HEAD') res.end();
      else res.destroy();
      return;
    }
    // Never more than what is left of the budget from the store: a reader asking for the rest
    // of a 10 GB object from byte 0 gets its first bytes and then a cut connection.
    const { body } = await storage.get(key, { start, end: Math.min(end, start + (budget - sent) - 1) });
    const stop = () => body.destroy();
    res.on('close', stop);
    let wrote = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      sent += chunk.length;
      wrote += chunk.length;
      if (!res.write(chunk)) await new Promise<void>((r) => res.once('drain', () => r()).once('close', () => r()));
      if (res.destroyed) return;
    }
    // The budget cut this answer short of its Content-Length: the reader sees a cut connection.
    if (wrote < end - start + 1) res.destroy();
    else res.end();
  };
  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => server.listen(0, '127.0.0.1', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
    get bytesRead() {
      return sent;
    },
  };
}

/**
 * One frame at `at` seconds as a JPEG on stdout, and the duration ffmpeg reports. Bounded: one
 * thread, a lower priority, a time limit, an address-space limit where prlimit exists, only
 * http from this host and the demuxers above, stdout at most MAX_OUTPUT_BYTES.
 */
function runFfmpeg(ffmpeg: string, url: string, at: number, signal?: AbortSignal): Promise<{ jpeg: Buffer; durationMs: number | null }> {
  const args = [
    '-nostdin',
    '-hide_banner',
    '-threads',
    '1',
    '-protocol_whitelist',
    'http,tcp',
    // The loopback server answers a window at a time: continue at once where it ended.
    '-reconnect',
    '1',
    '-reconnect_delay_max',
    '0',
    '-format_whitelist',
    FORMATS,
    ...(at > 0 ? ['-ss', String(at)] : []),
    '-i',
    url,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    `scale='min(${POSTER_EDGE},iw)':-2`,
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    '-q:v',
    '3',
    'pipe:1',
  ];
  const prlimit = existsSync('/usr/bin/prlimit');
  const child = prlimit ? spawn('/usr/bin/prlimit', [`--as=${FFMPEG_MEMORY_BYTES}`, '--', ffmpeg, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    if (child.pid) setPriority(child.pid, 10);
  } catch {
    // Not allowed here: it runs at the server's priority.
  }
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    // The service stopping: no wait for this picture (the item is claimed again later).
    const stop = () => child.kill('SIGKILL');
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 64 * 1024) err += c.toString('latin1');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, killed) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      if (killed) return reject(new Error(`ffmpeg stopped (${killed})`));
      const d = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(err);
      const durationMs = d ? Math.round((Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3])) * 1000) : null;
      if (code !== 0 && outBytes === 0 && durationMs === null) return reject(new Error(`ffmpeg failed: ${err.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`));
      resolve({ jpeg: Buffer.concat(out), durationMs });
    });
  });
}
