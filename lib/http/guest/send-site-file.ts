import 'server-only';
import type { FastReply, FastRequest } from '../fast';
import { isHtmlType } from '../../mime';
import { sendObject, type Sendable } from '../send-object';
import { readFirstBytes } from '../../storage/read-first-bytes';
import { perRuntime, type Runtime } from '../../runtime';
import { HOSTED_SANDBOX_CSP } from '../../security/csp';
import { compressedKey, type Encoding } from '../../storage/keys';
import { compress, isCompressible, negotiate } from '../../hosting/compression';
import { getCached, MAX_CACHED_BYTES, putCached } from '../../hosting/content-cache';
import { applyInjection, planInjection, SCAN_BYTES, streamWithInsert, type Injection } from '../../hosting/rewrite-html';
import type { SiteFile } from '../../hosting/site-cache';
import { BoundedCache } from '../../bounded-cache';

export interface SendOptions {
  status: 200 | 404;
  /** Set when the page is served away from its folder (SPA fallback, 404.html). */
  baseHref?: string;
  sandbox: boolean;
  locked: boolean;
  preview: boolean;
}

const YEAR = 31_536_000;
const SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz' };

/**
 * One file of a site. HTML gets its base and viewport (planned once per object and cached);
 * text types go out Brotli- or gzip-compressed when the client accepts it, from the copies
 * made at upload (never compressed per request); caching follows the name: `no-cache` + ETag
 * for HTML and plain names, a year `immutable` for names with a content hash.
 */
export async function sendSiteFile(rt: Runtime, req: FastRequest, file: SiteFile, opts: SendOptions): Promise<FastReply> {
  const html = isHtmlType(file.contentType);
  const scope = opts.locked ? 'private' : 'public';
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Cache-Control': file.immutable && !html ? `${scope}, max-age=${YEAR}, immutable` : opts.locked ? 'private, no-cache' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (opts.sandbox) headers['Content-Security-Policy'] = HOSTED_SANDBOX_CSP;
  if (opts.preview) headers['X-Robots-Tag'] = 'noindex';
  const compressible = isCompressible(file.contentType);
  if (compressible) headers.Vary = 'Accept-Encoding';
  // A 404 page answers every miss the same way: no ranges, no conditional requests.
  const request = opts.status === 200 ? req : { ...req, header: (n: string) => (/^(range|if-)/i.test(n) ? undefined : req.header(n)) };
  // Ranges are of the identity bytes: a Range request is never answered compressed.
  const wanted = compressible && !request.header('range') ? request.header('accept-encoding') : undefined;
  const base = `${file.tag}${html ? 'h' : ''}`;

  let reply: FastReply;
  if (html && opts.baseHref) {
    reply = await sendRewritten(rt, request, file, headers, base, opts.baseHref, wanted);
  } else {
    const encoding = negotiate(wanted, [...file.encodings.keys()]);
    if (encoding) {
      headers['Content-Encoding'] = encoding;
      const key = compressedKey(file.storageKey, encoding);
      reply = await sendCached(rt, request, { storageKey: key, size: file.encodings.get(encoding)!, etag: `"${base}${SUFFIX[encoding]}"`, lastModified: file.updatedAt, headers });
    } else if (html) {
      reply = await sendHtml(rt, request, file, headers, `"${base}"`);
    } else {
      reply = await sendCached(rt, request, { storageKey: file.storageKey, size: file.size, etag: `"${base}"`, lastModified: file.updatedAt, headers });
    }
  }
  if (opts.status === 404 && reply.status === 200) reply.status = 404;
  return reply;
}

/** Small objects from memory (they never change under their key), large ones streamed. */
async function sendCached(rt: Runtime, req: FastRequest, obj: Sendable): Promise<FastReply> {
  if (obj.size > MAX_CACHED_BYTES || req.method === 'HEAD') return sendObject(req, rt.storage, obj);
  let body = getCached(rt, obj.storageKey);
  if (!body) {
    body = await readFirstBytes(rt.storage, obj.storageKey, obj.size);
    putCached(rt, obj.storageKey, body);
  }
  return sendObject(req, rt.storage, { ...obj, buffer: body });
}

async function sendHtml(rt: Runtime, req: FastRequest, file: SiteFile, headers: Record<string, string>, etag: string): Promise<FastReply> {
  const obj = { storageKey: file.storageKey, size: file.size, etag, lastModified: file.updatedAt, headers };
  if (file.size <= MAX_CACHED_BYTES) {
    let body = getCached(rt, `${file.storageKey}#html`);
    if (!body) {
      const raw = await readFirstBytes(rt.storage, file.storageKey, file.size);
      body = applyInjection(raw, planInjection(raw));
      putCached(rt, `${file.storageKey}#html`, body);
    }
    return sendObject(req, rt.storage, { ...obj, buffer: body });
  }
  return sendLargeHtml(rt, req, file, headers, etag);
}

/** Each service's, by object of its own store. */
const plansOf = perRuntime(() => new BoundedCache<string, Injection | null>({ maxEntries: 1000 }));

/** Big HTML: plan the injection once per object from its head, then stream around it. */
async function sendLargeHtml(rt: Runtime, req: FastRequest, file: SiteFile, headers: Record<string, string>, etag: string): Promise<FastReply> {
  const plans = plansOf(rt);
  let plan = plans.get(file.storageKey);
  if (plan === undefined) {
    plan = planInjection(await readFirstBytes(rt.storage, file.storageKey, Math.min(file.size, SCAN_BYTES)));
    plans.set(file.storageKey, plan);
  }
  const size = file.size + (plan ? Buffer.byteLength(plan.text) : 0);
  // Ranges of a rewritten document are not offered: the whole document is sent.
  const all = { ...headers, ETag: etag, 'Content-Length': String(size) };
  if (req.header('if-none-match') === etag) return { status: 304, headers: all, body: null };
  if (req.method === 'HEAD') return { status: 200, headers: all, body: null };
  const body = plan ? streamWithInsert(rt.storage, file.storageKey, file.size, plan.offset, plan.text) : (await rt.storage.get(file.storageKey)).body;
  return { status: 200, headers: all, body };
}

/**
 * The index file served by the SPA fallback (or 404.html at any depth), with a base href to
 * its own folder. Up to the cache size it is rewritten and compressed once and kept; a larger
 * page is sent as it is.
 */
async function sendRewritten(
  rt: Runtime,
  req: FastRequest,
  file: SiteFile,
  headers: Record<string, string>,
  base: string,
  baseHref: string,
  acceptEncoding: string | undefined,
): Promise<FastReply> {
  if (file.size > MAX_CACHED_BYTES) return sendHtml(rt, req, file, headers, `"${base}"`);
  const key = `${file.storageKey}#base=${baseHref}`;
  let body = getCached(rt, key);
  if (!body) {
    const raw = await readFirstBytes(rt.storage, file.storageKey, file.size);
    body = applyInjection(raw, planInjection(raw, { baseHref }));
    putCached(rt, key, body);
  }
  const tag = `${base}b${Buffer.from(baseHref).toString('base64url').slice(-12)}`;
  const encoding = negotiate(acceptEncoding, ['br', 'gzip']);
  if (encoding) {
    let packed = getCached(rt, `${key}#${encoding}`);
    if (!packed) {
      packed = await compress(body, encoding);
      putCached(rt, `${key}#${encoding}`, packed);
    }
    if (packed.length < body.length) {
      const obj = { storageKey: file.storageKey, size: packed.length, etag: `"${tag}${SUFFIX[encoding]}"`, lastModified: file.updatedAt, headers: { ...headers, 'Content-Encoding': encoding } };
      return sendObject(req, rt.storage, { ...obj, buffer: packed });
    }
  }
  return sendObject(req, rt.storage, { storageKey: file.storageKey, size: body.length, etag: `"${tag}"`, lastModified: file.updatedAt, headers, buffer: body });
}
