import 'server-only';
import { projectUnlockCookie, unlockKey, verifyUnlock } from '../auth/unlock-cookie';
import { AppError, notFound } from '../errors';
import { parseCookies } from '../http/cookies';
import type { FastReply, FastRequest } from '../http/fast';
import { passwordPage } from '../http/password-page';
import { errorReply } from '../http/reply-errors';
import { decodeUrlPath } from '../paths/relative-path';
import { assertMigrated, getRuntime, type Runtime } from '../runtime';
import { resolvePath } from './resolve-path';
import { sendSiteFile } from './send-site-file';
import { keepReply } from './reply-cache';
import { getSite, siteGeneration, type Site } from './site-cache';
import { siteListing } from './site-listing';
import { unlockProject } from './unlock-project';
import { DEPLOY_REF, SLUG } from './slug-grammar';

/** /p/<slug>[@<deploy>]/<path>: `@<deploy>` is an unlisted preview of one deploy. */
const URL_PATTERN = new RegExp(`^/p/(${SLUG})(?:@(${DEPLOY_REF}))?(?:/(.*))?$`);

export interface HostedOptions {
  /** Only under the HOSTED_PORT=0 opt-out: /p/ on the main origin, in a CSP sandbox. */
  sandbox: boolean;
}

/** /p/*: hosted sites, served without the framework on the hosted origin. */
export async function serveHosted(req: FastRequest, opts: HostedOptions): Promise<FastReply> {
  try {
    return await handle(await getRuntime(), req, opts);
  } catch (e) {
    return errorReply(e, req);
  }
}

async function handle(rt: Runtime, req: FastRequest, opts: HostedOptions): Promise<FastReply> {
  await assertMigrated(rt);
  const q = req.url.indexOf('?');
  const pathname = q < 0 ? req.url : req.url.slice(0, q);
  const m = URL_PATTERN.exec(pathname);
  if (!m) throw notFound();
  const [, slug, deployId, rawRest] = m;
  const prefix = `/p/${slug}${deployId ? `@${deployId}` : ''}`;

  if (req.method === 'POST') {
    if (rawRest === 'unlock') return unlockProject(rt, req, slug, prefix);
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('method_not_allowed', 'Only GET and HEAD are allowed here', { Allow: 'GET, HEAD' });
  }
  const gen = siteGeneration();
  const site = await getSite(rt, slug, deployId);
  if (!site || (site.files.size === 0 && !deployId)) throw notFound();
  // The same gate for every path of a locked project, existing or not: nothing leaks.
  if (site.passwordHash && !(await unlocked(rt, req, site))) {
    return passwordPage({ status: 401, title: prefix, action: `${prefix}/unlock`, next: pathname });
  }
  const rest = rawRest === undefined ? undefined : decodeUrlPath(rawRest);
  if (rest === null) throw notFound();
  const r = resolvePath(site, prefix, rest, q < 0 ? '' : req.url.slice(q));
  const extra = { sandbox: opts.sandbox, locked: site.passwordHash !== null, preview: Boolean(deployId) };
  switch (r.kind) {
    case 'redirect':
      return { status: r.status, headers: { Location: r.location, 'Cache-Control': 'no-cache' }, body: null };
    case 'listing':
      return siteListing(site, prefix, extra);
    case 'file': {
      const reply = await sendSiteFile(rt, req, r.file, { ...extra, status: r.status, baseHref: r.baseHref });
      if (!extra.locked) keepReply(req, opts.sandbox, gen, reply);
      return reply;
    }
    case 'not-found':
      throw notFound();
  }
}

async function unlocked(rt: Runtime, req: FastRequest, site: Site): Promise<boolean> {
  const value = parseCookies(req.header('cookie'))[projectUnlockCookie(site.slug)];
  const subject = { kind: 'project' as const, id: site.slug, createdAt: site.createdAt, passwordHash: site.passwordHash! };
  return verifyUnlock(await unlockKey(rt), subject, value);
}
