import 'server-only';
import { findProject } from '@/db/queries/projects';
import { projectUnlockCookie } from '../../auth/unlock-cookie';
import { unlockWithPassword } from '../unlock-with-password';
import { notFound } from '../../errors';
import type { FastReply, FastRequest } from '../fast';
import { isSecureHostedRequest } from '../origin';
import { encodeNonAscii, sameOriginPath } from '../../same-origin-path';
import type { Runtime } from '../../runtime';

/**
 * POST /p/:slug/unlock — form (303 back to the page) or JSON (200), rate-limited per address.
 * The cookie is scoped to the site's paths (`/p/<slug>`, a preview's `/p/<slug>@<deploy>`, or
 * `/` when `prefix` is '': a project at the root of its own origin), so it reaches every file
 * of the site and nothing else.
 */
export function unlockProject(rt: Runtime, req: FastRequest, slug: string, prefix: string, page: { title: string; action: string; subject: 'project'; pickerAction: string }): Promise<FastReply> {
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
 * Only back into this project: a path of this origin by the one rule (lib/same-origin-path.ts),
 * a character past ASCII percent-encoded first (a Location header cannot carry one above
 * U+00FF), that stays under `prefix` once its dot segments are resolved; else the project's home.
 */
export function safeNext(next: string | undefined, prefix: string): string {
  const home = `${prefix}/`;
  const path = sameOriginPath(next === undefined ? undefined : encodeNonAscii(next));
  if (!path) return home;
  const u = new URL(path, 'http://host.invalid');
  const target = u.pathname + u.search;
  return target === prefix || target.startsWith(home) ? target : home;
}
