import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { findUserDisplayName } from '@/db/queries/users';
import { previewKind } from '@/lib/http/mime';
import { assertMigrated, getRuntime } from '@/lib/runtime';
import { guestAccess } from '@/lib/shares/access';
import { ShareView, type ViewShare } from './_components/share-view';

export const metadata: Metadata = { title: 'Shared files', referrer: 'no-referrer', robots: { index: false } };

type Params = Promise<{ id: string }>;

/**
 * The guest page of a share. Under server.ts the 404/410/401 cases never reach here (the fast
 * path answers them with the right status, in lib/http/guest-page.ts's layout); under plain
 * `next start` they render here.
 *
 * The render costs O(items) small work and reads no object: names, sizes and preview kinds
 * only. Previews are fetched by the visitor's browser, by Range, when they scroll into view.
 */
export default async function SharePage({ params }: { params: Params }) {
  const { id } = await params;
  const rt = await getRuntime();
  await assertMigrated(rt);
  const jar = await cookies();
  const access = await guestAccess(rt, id, jar.toString());
  if (access.state === 'missing') notFound();
  if (access.state === 'expired') {
    return (
      <Centered title="This share has expired">
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Ask the person who sent you the link for a new one.</p>
      </Centered>
    );
  }
  if (access.state === 'exhausted') {
    return (
      <Centered title="This share has reached its download limit">
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Ask the person who sent you the link to share it again.</p>
      </Centered>
    );
  }
  if (access.state === 'locked') {
    return (
      <Centered title="Password required">
        <form method="post" action={`/f/${id}/unlock`} className="mt-4 space-y-3">
          <label htmlFor="password" className="block text-sm font-medium">
            Password
          </label>
          <input id="password" name="password" type="password" required autoFocus className="w-full rounded-md border border-zinc-300 px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900" />
          <button className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white">Unlock</button>
        </form>
      </Centered>
    );
  }
  const { group, items } = access.share;
  const sharedBy = group.userId ? await findUserDisplayName(rt.db, group.userId) : null;
  const share: ViewShare = {
    id: group.id,
    note: group.note,
    sharedBy: sharedBy ?? 'the administrator',
    createdAt: group.createdAt.toISOString(),
    expiresAt: group.expiresAt ? group.expiresAt.toISOString() : null,
    totalBytes: Number(group.totalBytes),
    items: items.map((it) => [it.relativePath, Number(it.size), previewKind(it.contentType)]),
  };
  return <ShareView share={share} />;
}

function Centered({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="grid min-h-screen place-items-center p-4">
      <div className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900">
        <h1 className="text-lg font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}
