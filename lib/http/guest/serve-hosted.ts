import 'server-only';
import { projectUnlockCookie, rememberUnlock, unlockKey, unlockSubjectKey, verifyUnlock, type UnlockSubject } from '../../auth/unlock-cookie';
import { AppError, notFound } from '../../errors';
import { cookieValue } from '../cookies';
import type { FastReply, FastRequest } from '../fast';
import { passwordPage } from '../password-page';
import { chooseLocale } from '../locale-choice';
import { projectLocaleChoicePath } from '../locale-picker';
import { errorReply } from '../reply-errors';
import { decodeUrlPath } from '../../paths/relative-path';
import { assertMigrated, type Runtime } from '../../runtime';
import { resolvePath } from '../../hosting/resolve-path';
import { sendSiteFile } from './send-site-file';
import { gatePreview } from './preview-gate';
import { keepReply } from './reply-cache';
import { siteScope } from './reply-answer';
import { getSite, siteGeneration, type Site } from '../../hosting/site-cache';
import { siteListing } from './site-listing';
import { unlockProject } from './unlock-project';
import { hostedTarget, HOSTED_URL_PATTERN } from './hosted-target';
import { localeOf } from '../locale-of';

export interface HostedOptions {
  /** Only under the HOSTED_PORT=0 opt-out: /p/ on the main origin, in a CSP sandbox. */
  sandbox: boolean;
  /** A project on an origin of its own (per-site HOSTED_ORIGIN): served at the root. */
  site?: string;
}

/** The reply cache's scope of a request: the same URL means another file on another site's origin. */
export const replyScope = (opts: HostedOptions) => (opts.sandbox ? 's' : opts.site ? siteScope(opts.site) : '');

/** /p/*: hosted sites, served without the framework on the hosted origin. */
export async function serveHosted(req: FastRequest, opts: HostedOptions): Promise<FastReply> {
  try {
    return await handle(req.rt, req, opts);
  } catch (e) {
    // The error page's picker posts beside the project's unlock; outside a project there is none.
    const slug = opts.site ?? HOSTED_URL_PATTERN.exec(req.url.split('?')[0])?.[1];
    return errorReply(e, req, slug ? projectLocaleChoicePath(slug) : null);
  }
}

async function handle(rt: Runtime, req: FastRequest, opts: HostedOptions): Promise<FastReply> {
  await assertMigrated(rt);
  const q = req.url.indexOf('?');
  const pathname = q < 0 ? req.url : req.url.slice(0, q);
  const target = hostedTarget(pathname, req.method, opts.site);
  if (!target) throw notFound();
  const { slug, deployId, rawRest } = target;
  // A deploy's preview is the administrator's: the console's link or its cookie, else 404.
  if (deployId) {
    const kept = await gatePreview(rt, req, { slug, deployId, prefix: target.prefix, pathname, query: q < 0 ? '' : req.url.slice(q + 1) });
    if (kept) return kept;
  }
  // At an origin's root the unlock form posts to /p/<slug>/unlock, and its cookie covers the origin.
  const prefix = opts.site && !deployId ? '' : target.prefix;
  const gate = { subject: 'project' as const, title: `/p/${slug}${deployId ? `@${deployId}` : ''}`, action: `/p/${slug}${deployId ? `@${deployId}` : ''}/unlock`, pickerAction: projectLocaleChoicePath(slug) };

  if (req.method === 'POST') {
    if (rawRest === 'unlock' && target.prefix !== '') return unlockProject(rt, req, slug, prefix, gate);
    // A project answers only GET and HEAD, so this takes none of its paths.
    if (rawRest === 'locale' && target.prefix !== '' && !deployId) return chooseLocale(req, { hosted: true, fallback: `${prefix}/` });
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  const gen = siteGeneration(rt);
  const site = await getSite(rt, slug, deployId);
  if (!site || (site.files.size === 0 && !deployId)) throw notFound();
  // The same gate for every path of a locked project, existing or not: nothing leaks.
  if (site.passwordHash && !(await unlocked(rt, req, site))) {
    return passwordPage({ status: 401, ...gate, locale: localeOf((name) => req.header(name)), next: pathname });
  }
  const rest = rawRest === undefined ? undefined : decodeUrlPath(rawRest);
  if (rest === null) throw notFound();
  const r = resolvePath(site, prefix, rest, q < 0 ? '' : req.url.slice(q));
  // A preview is private like a locked site: never shared caching, never the reply cache.
  const extra = { sandbox: opts.sandbox, locked: site.passwordHash !== null || Boolean(deployId), preview: Boolean(deployId) };
  switch (r.kind) {
    case 'redirect':
      return { status: r.status, headers: { Location: r.location, 'Cache-Control': 'no-cache' }, body: null };
    case 'listing':
      return siteListing(site, prefix, { ...extra, locale: localeOf((name) => req.header(name)) });
    case 'file': {
      const reply = await sendSiteFile(rt, req, r.file, { ...extra, status: r.status, baseHref: r.baseHref });
      if (site.rules?.hasHeaders) addRuleHeaders(reply, site.rules.headersFor(`/${rest}`), extra.locked);
      // Never a preview's reply: it is the administrator's alone.
      if (!deployId) keepReply(req, replyScope(opts), gen, reply, site.passwordHash ? { cookie: projectUnlockCookie(site.slug), subject: unlockSubjectKey(subjectOf(site)) } : null);
      return reply;
    }
    case 'not-found':
      throw notFound();
  }
}

/**
 * `_headers` of the requested path, added to the reply before it is kept (so a cached reply
 * carries them at no cost): a name the reply has is replaced, except a Content-Security-Policy,
 * which is added beside ours (both apply: the sandbox's stays) and Vary, which is joined. A
 * locked project's or a preview's Cache-Control stays private: no rule makes it shareable.
 */
function addRuleHeaders(reply: FastReply, rules: [string, string][], locked: boolean): void {
  const headers = reply.headers as Record<string, string | string[]>;
  for (const [name, value] of rules) {
    const lower = name.toLowerCase();
    const have = Object.keys(headers).find((k) => k.toLowerCase() === lower);
    if (lower === 'cache-control' && locked) continue;
    if (have === undefined) headers[name] = value;
    else if (lower === 'content-security-policy') headers[have] = [headers[have], value].flat();
    else if (lower === 'vary') headers[have] = `${headers[have]}, ${value}`;
    else if (lower !== 'x-content-type-options') headers[have] = value;
  }
}

const subjectOf = (site: Site): UnlockSubject => ({ kind: 'project', id: site.slug, createdAt: site.createdAt, passwordHash: site.passwordHash! });

async function unlocked(rt: Runtime, req: FastRequest, site: Site): Promise<boolean> {
  const value = cookieValue(req.header('cookie'), projectUnlockCookie(site.slug));
  const key = await unlockKey(rt);
  const subject = subjectOf(site);
  if (!verifyUnlock(key, subject, value)) return false;
  // The reply cache may then answer this cookie without the HMAC (reply-cache.ts).
  rememberUnlock(rt, key, unlockSubjectKey(subject), value!);
  return true;
}
