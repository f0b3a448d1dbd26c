import { findProject } from '@/db/queries/hosting';
import { verifyPassword } from '../auth/passwords';
import { enforceRateLimit } from '../auth/rate-limit';
import { projectUnlockCookie, signUnlock, UNLOCK_MAX_AGE, unlockKey, verifyUnlock } from '../auth/unlock-cookie';
import { AppError, notFound } from '../errors';
import { parseCookies, serializeCookie } from '../http/cookies';
import { jsonReply, type FastReply, type FastRequest } from '../http/fast';
import { isHtmlType } from '../http/mime';
import { passwordPage } from '../http/password-page';
import { readUnlockBody } from '../http/read-body';
import { errorReply } from '../http/reply-errors';
import { readSmall, sendObject, streamWithInsert } from '../http/send-object';
import { decodeUrlPath, encodeUrlPath } from '../paths/relative-path';
import { assertMigrated, getRuntime, type Runtime } from '../runtime';
import { HOSTED_SANDBOX_CSP } from '../security/csp';
import { isSecureHostedRequest } from '../http/origin';
import { getCached, MAX_CACHED_BYTES, putCached } from './content-cache';
import { applyInjection, planInjection, SCAN_BYTES, type Injection } from './rewrite-html';
import { getSite, type Site, type SiteFile } from './site-cache';
import { isValidSlug } from './slug';

const URL_PATTERN = /^\/p\/([^/]*)(?:\/(.*))?$/;

/** /p/<slug>/<path>: hosted sites, served without the framework. */
export async function serveHosted(req: FastRequest, opts: { sandbox: boolean }): Promise<FastReply> {
  try {
    return await handle(await getRuntime(), req, opts.sandbox);
  } catch (e) {
    return errorReply(e, req);
  }
}

async function handle(rt: Runtime, req: FastRequest, sandbox: boolean): Promise<FastReply> {
  await assertMigrated(rt);
  const q = req.url.indexOf('?');
  const pathname = q < 0 ? req.url : req.url.slice(0, q);
  const m = URL_PATTERN.exec(pathname);
  const slug = m ? decodeUrlPath(m[1]) : null;
  if (!m || !slug || !isValidSlug(slug)) throw notFound();
  const rest = m[2];

  if (req.method === 'POST') {
    if (rest === 'unlock') return unlock(rt, req, slug);
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  const site = await getSite(rt, slug);
  if (!site || site.files.size === 0) throw notFound();
  // The same gate for every path of a locked project, existing or not: nothing leaks.
  if (site.passwordHash && !(await unlocked(rt, req, site))) {
    return passwordPage({ status: 401, title: `/p/${slug}`, action: `/p/${slug}/unlock`, next: pathname });
  }
  if (!rest) {
    if (!site.indexPath) throw notFound();
    const location = `/p/${slug}/${encodeUrlPath(site.indexPath)}${q < 0 ? '' : req.url.slice(q)}`;
    return { status: 302, headers: { Location: location, 'Cache-Control': 'no-cache' }, body: null };
  }
  const path = decodeUrlPath(rest);
  const file = path === null ? undefined : site.files.get(path);
  if (!file) throw notFound();
  return serveFile(rt, req, file, site.passwordHash !== null, sandbox);
}

async function unlocked(rt: Runtime, req: FastRequest, site: Site): Promise<boolean> {
  const value = parseCookies(req.header('cookie'))[projectUnlockCookie(site.slug)];
  const subject = { kind: 'project' as const, id: site.slug, createdAt: site.createdAt, passwordHash: site.passwordHash! };
  return verifyUnlock(await unlockKey(rt), subject, value);
}

async function serveFile(rt: Runtime, req: FastRequest, file: SiteFile, locked: boolean, sandbox: boolean): Promise<FastReply> {
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Cache-Control': locked ? 'private, no-cache' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  if (sandbox) headers['Content-Security-Policy'] = HOSTED_SANDBOX_CSP;
  const etag = `"${file.id.slice(0, 8)}-${file.version}${isHtmlType(file.contentType) ? 'h' : ''}"`;
  const object = { storageKey: file.storageKey, size: file.size, etag, lastModified: file.updatedAt, headers };
  const cacheKey = `${file.id}:${file.version}`;

  if (isHtmlType(file.contentType)) {
    if (file.size <= MAX_CACHED_BYTES) {
      let body = getCached(cacheKey);
      if (!body) {
        const raw = await readSmall(rt.storage, file.storageKey, file.size);
        body = applyInjection(raw, planInjection(raw));
        putCached(cacheKey, body);
      }
      return sendObject(req, rt.storage, { ...object, buffer: body });
    }
    return sendLargeHtml(rt, req, file, object, cacheKey);
  }
  if (file.size <= MAX_CACHED_BYTES && req.method !== 'HEAD') {
    let body = getCached(cacheKey);
    if (!body) {
      body = await readSmall(rt.storage, file.storageKey, file.size);
      putCached(cacheKey, body);
    }
    return sendObject(req, rt.storage, { ...object, buffer: body });
  }
  return sendObject(req, rt.storage, object);
}

const plans = new Map<string, Injection | null>();

/** Big HTML: plan the injection once per version from its head, then stream around it. */
async function sendLargeHtml(
  rt: Runtime,
  req: FastRequest,
  file: SiteFile,
  object: { etag: string; headers: Record<string, string> },
  cacheKey: string,
): Promise<FastReply> {
  let plan = plans.get(cacheKey);
  if (plan === undefined) {
    const head = await rt.storage.get(file.storageKey, { start: 0, end: Math.min(file.size, SCAN_BYTES) - 1 });
    const chunks: Buffer[] = [];
    for await (const c of head.body) chunks.push(Buffer.from(c));
    plan = planInjection(Buffer.concat(chunks));
    if (plans.size > 1000) plans.clear();
    plans.set(cacheKey, plan);
  }
  const size = file.size + (plan ? Buffer.byteLength(plan.text) : 0);
  // Ranges of a rewritten document are not offered: the whole document is sent.
  const headers = { ...object.headers, ETag: object.etag, 'Content-Length': String(size) };
  if (req.header('if-none-match') === object.etag) return { status: 304, headers, body: null };
  if (req.method === 'HEAD') return { status: 200, headers, body: null };
  const body = plan
    ? streamWithInsert(rt.storage, file.storageKey, file.size, plan.offset, plan.text)
    : (await rt.storage.get(file.storageKey)).body;
  return { status: 200, headers, body };
}

/** POST /p/:slug/unlock — form (303 back to the page) or JSON (200), rate-limited per address. */
async function unlock(rt: Runtime, req: FastRequest, slug: string): Promise<FastReply> {
  await enforceRateLimit(rt, 'unlock', req.ip);
  const input = await readUnlockBody(req);
  const project = await findProject(rt.db, slug);
  if (!project) throw notFound();
  const target = safeNext(input.next, slug);
  const headers: Record<string, string | string[]> = { 'Cache-Control': 'no-store' };
  if (project.passwordHash) {
    if (!(await verifyPassword(input.password, project.passwordHash))) {
      if (input.json) return jsonReply(401, { error: 'Wrong password', code: 'wrong_password' });
      return passwordPage({ status: 401, title: `/p/${slug}`, action: `/p/${slug}/unlock`, next: target, error: 'Wrong password. Try again.' });
    }
    const value = signUnlock(await unlockKey(rt), { kind: 'project', id: slug, createdAt: project.createdAt, passwordHash: project.passwordHash });
    headers['Set-Cookie'] = serializeCookie(projectUnlockCookie(slug), value, {
      maxAge: UNLOCK_MAX_AGE,
      secure: isSecureHostedRequest(rt.env, req),
      path: `/p/${slug}`,
    });
  }
  if (input.json) return { ...jsonReply(200, { ok: true }), headers: { ...headers, 'Content-Type': 'application/json' }, body: '{"ok":true}' };
  return { status: 303, headers: { ...headers, Location: target }, body: null };
}

/**
 * Only back into this project, never elsewhere (no `//host`, no backslashes), and always as
 * percent-encoded ASCII: a Location header cannot carry a character above U+00FF.
 */
export function safeNext(next: string | undefined, slug: string): string {
  const home = `/p/${slug}/`;
  if (!next || next.includes('//') || /[\u0000-\u001f\u007f\\]/.test(next)) return home;
  let u: URL;
  try {
    u = new URL(next, 'http://host.invalid');
  } catch {
    return home;
  }
  const target = u.pathname + u.search;
  if (u.origin !== 'http://host.invalid' || !(target === `/p/${slug}` || target.startsWith(home))) return home;
  return target;
}
