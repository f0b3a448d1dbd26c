import 'server-only';
import { findProject } from '@/db/queries/hosting';
import { verifyPassword } from '../auth/passwords';
import { enforceRateLimit } from '../auth/rate-limit';
import { projectUnlockCookie, signUnlock, UNLOCK_MAX_AGE, unlockKey } from '../auth/unlock-cookie';
import { notFound } from '../errors';
import { serializeCookie } from '../http/cookies';
import { jsonReply, type FastReply, type FastRequest } from '../http/fast';
import { isSecureHostedRequest } from '../http/origin';
import { passwordPage } from '../http/password-page';
import { readUnlockBody } from '../http/read-body';
import type { Runtime } from '../runtime';

/**
 * POST /p/:slug/unlock — form (303 back to the page) or JSON (200), rate-limited per address.
 * The cookie is scoped to the path the form was on (`/p/<slug>`, or a preview's
 * `/p/<slug>@<deploy>`), so it reaches every file of the site and nothing else.
 */
export async function unlockProject(rt: Runtime, req: FastRequest, slug: string, prefix: string): Promise<FastReply> {
  await enforceRateLimit(rt, 'unlock', req.ip);
  const input = await readUnlockBody(req);
  const project = await findProject(rt.db, slug);
  if (!project) throw notFound();
  const target = safeNext(input.next, prefix);
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (project.passwordHash) {
    if (!(await verifyPassword(input.password, project.passwordHash))) {
      if (input.json) return jsonReply(401, { error: 'Wrong password', code: 'wrong_password' });
      return passwordPage({ status: 401, title: prefix, action: `${prefix}/unlock`, next: target, error: 'Wrong password. Try again.' });
    }
    const value = signUnlock(await unlockKey(rt), { kind: 'project', id: slug, createdAt: project.createdAt, passwordHash: project.passwordHash });
    headers['Set-Cookie'] = serializeCookie(projectUnlockCookie(slug), value, {
      maxAge: UNLOCK_MAX_AGE,
      secure: isSecureHostedRequest(rt.env, req),
      path: prefix,
    });
  }
  if (input.json) return jsonReply(200, { ok: true }, headers);
  return { status: 303, headers: { ...headers, Location: target }, body: null };
}

/**
 * Only back into this project, never elsewhere (no `//host`, no backslashes), and always as
 * percent-encoded ASCII: a Location header cannot carry a character above U+00FF.
 */
export function safeNext(next: string | undefined, prefix: string): string {
  const home = `${prefix}/`;
  if (!next || next.includes('//') || /[\u0000-\u001f\u007f\\]/.test(next)) return home;
  let u: URL;
  try {
    u = new URL(next, 'http://host.invalid');
  } catch {
    return home;
  }
  const target = u.pathname + u.search;
  if (u.origin !== 'http://host.invalid' || !(target === prefix || target.startsWith(home))) return home;
  return target;
}
