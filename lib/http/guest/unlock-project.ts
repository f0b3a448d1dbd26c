import 'server-only';
import { findProject } from '@/db/queries/projects';
import { projectUnlockCookie } from '../../auth/unlock-cookie';
import { unlockWithPassword } from '../unlock-with-password';
import { notFound } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { isSecureHostedRequest } from '../origin';
import type { Runtime } from '../../runtime';

/**
 * POST /p/:slug/unlock — form (303 back to the page) or JSON (200), rate-limited per address.
 * The cookie is scoped to the site's paths (`/p/<slug>`, a preview's `/p/<slug>@<deploy>`, or
 * `/` when `prefix` is '': a project at the root of its own origin), so it reaches every file
 * of the site and nothing else.
 */
export function unlockProject(rt: Runtime, req: FastRequest, slug: string, prefix: string, page: { title: string; action: string; subject: 'project' }): Promise<FastReply> {
  return unlockWithPassword(rt, req, async (next) => {
    const project = await findProject(rt.db, slug);
    if (!project) throw notFound();
    return {
      subject: { kind: 'project', id: slug, createdAt: project.createdAt, passwordHash: project.passwordHash },
      cookie: { name: projectUnlockCookie(slug), path: prefix || '/', secure: isSecureHostedRequest(rt.env, req) },
      page,
      next: safeNext(next, prefix),
    };
  });
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
