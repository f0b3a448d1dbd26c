import 'server-only';
import { unlockKey } from '../auth/unlock-cookie';
import { hmac, safeEqual } from '../auth/crypto';
import type { Runtime } from '../runtime';

/**
 * Previews of deploys (/p/<slug>@<deploy>/) are the administrator's (issue 22, finding 8): an
 * older deploy holds the files of its time, and a deploy id is no secret once it has been
 * shared (files taken offline or deleted are so in every deploy: db/queries/hosted-files.ts). The deploy list gives the console a link with a grant,
 * `?preview=<expiry>.<HMAC>`, signed with the unlock key (the server secret and the Admin
 * Token: a new token ends every grant). Opening the link keeps the grant in an HttpOnly cookie
 * for that deploy's path on the hosted origin and answers 303 to the clean address, so the
 * preview's own relative links and assets work; without a grant a preview is a 404, like a
 * deploy that does not exist (the request's side: lib/http/guest/preview-gate.ts).
 */
export const PREVIEW_PARAM = 'preview';
const GRANT_SECONDS = 12 * 3600;

export const previewCookieName = (deployId: string) => `htmls_preview_${deployId}`;
const sign = (key: string, slug: string, deployId: string, expires: number) => hmac(key, 'deploy-preview', slug, deployId, expires);

/** The query the console's preview link carries (GET /api/projects/:slug/deploys). */
export async function previewQuery(rt: Runtime, slug: string, deployId: string): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + GRANT_SECONDS;
  return `${PREVIEW_PARAM}=${expires}.${sign(await unlockKey(rt), slug, deployId, expires)}`;
}

/** Whether `grant` (from the link or its cookie) lets its holder see the preview of `deployId`. */
export async function previewGranted(rt: Runtime, slug: string, deployId: string, grant: string | undefined): Promise<boolean> {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(grant ?? '');
  if (!m || Number(m[1]) * 1000 <= Date.now()) return false;
  return safeEqual(m[2], sign(await unlockKey(rt), slug, deployId, Number(m[1])));
}
