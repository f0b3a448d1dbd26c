import 'server-only';
import { requestUnlockCookie } from '../../auth/unlock-cookie';
import { parseCookies } from '../cookies';
import { effectiveLimits, guestRequest, ownerFreeBytes } from '../../requests/request-gate';
import { assertMigrated, getRuntime } from '../../runtime';
import type { GuestRequestView } from '../../contract/pages';

/**
 * A file request's upload page data, or null when it is not open (server.ts's gate, in
 * lib/http/guest/serve-request-page.ts, answered 404/410/401 with their status first). Reading it
 * consumes nothing: only a completed upload counts toward the request's max_uploads.
 * `cookie(name)` reads the request's cookie jar.
 */
export async function requestView(id: string, cookieHeader: string, cookie: (name: string) => string | undefined): Promise<GuestRequestView | null> {
  const rt = await getRuntime();
  await assertMigrated(rt);
  const gate = await guestRequest(rt, id, parseCookies(cookieHeader));
  if (gate.state !== 'open') return null;
  const { request: r, ownerName } = gate.found;
  const limits = effectiveLimits(rt.env, r);
  // The real space left: a request without its own limit must not promise 50 GB to a guest
  // when its owner has 2 GB free (the init refuses past the quota anyway).
  const free = await ownerFreeBytes(rt, r.userId);
  const byQuota = free < limits.maxBytes;
  return {
    id: r.id,
    note: r.note,
    ownerName,
    expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
    maxFiles: limits.maxFiles,
    maxBytes: Math.min(limits.maxBytes, free),
    byQuota,
    limitedFiles: r.maxFiles !== null,
    limitedBytes: r.maxBytes !== null || rt.env.requestMaxBytes !== undefined || byQuota,
    allowedTypes: r.allowedTypes,
    requireName: r.requireName,
    // The unlock cookie's Path keeps it off /api: the page hands its value to the upload's init.
    unlock: r.passwordHash ? (cookie(requestUnlockCookie(r.id)) ?? null) : null,
  };
}
