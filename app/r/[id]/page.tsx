import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { requestUnlockCookie } from '@/lib/auth/unlock-cookie';
import { effectiveLimits, guestRequest, ownerFreeBytes } from '@/lib/requests/request-gate';
import { assertMigrated, getRuntime } from '@/lib/runtime';
import { RequestUpload, type GuestRequestView } from './_components/request-upload';

export const metadata: Metadata = { title: 'Send files', referrer: 'no-referrer', robots: { index: false } };

type Params = Promise<{ id: string }>;

/**
 * A file request's upload page. Its 404/410/401 answers never reach here: server.ts's gate
 * (lib/requests/serve-request-page.ts) gives them with their status first. Rendering it
 * consumes nothing: only a completed upload counts toward the request's max_uploads.
 */
export default async function RequestPage({ params }: { params: Params }) {
  const { id } = await params;
  const rt = await getRuntime();
  await assertMigrated(rt);
  const jar = await cookies();
  const gate = await guestRequest(rt, id, jar.toString());
  if (gate.state !== 'open') notFound();
  const { request: r, ownerName } = gate.found;
  const limits = effectiveLimits(rt.env, r);
  // The real space left: a request without its own limit must not promise 50 GB to a guest
  // when its owner has 2 GB free (the init refuses past the quota anyway).
  const free = await ownerFreeBytes(rt, r.userId);
  const byQuota = free < limits.maxBytes;
  const view: GuestRequestView = {
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
    unlock: r.passwordHash ? (jar.get(requestUnlockCookie(r.id))?.value ?? null) : null,
  };
  return <RequestUpload request={view} />;
}
