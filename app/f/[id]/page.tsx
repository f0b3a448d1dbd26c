import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { previewKind } from '@/lib/http/mime';
import { assertMigrated, getRuntime } from '@/lib/runtime';
import { guestAccess } from '@/lib/shares/access';
import { toShareDto } from '@/lib/shares/share-dto';
import { ShareView } from './_components/share-view';

export const metadata: Metadata = { title: 'Shared files', referrer: 'no-referrer', robots: { index: false } };

type Params = Promise<{ id: string }>;

/**
 * The guest page of a share. Under server.ts the 404/410/401 cases never reach here (the fast
 * path answers them with the right status); under plain `next start` they render here.
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
        <p className="text-sm text-zinc-500">Ask the person who sent you the link for a new one.</p>
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
  const share = toShareDto(access.share);
  const items = share.items.map((it) => ({ ...it, preview: previewKind(it.content_type) }));
  return <ShareView share={{ ...share, items }} />;
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
