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
  const rows = new Map(access.share.items.map((it) => [it.relativePath, it]));
  const items = await Promise.all(
    share.items.map(async (it) => {
      const preview = previewKind(it.content_type);
      const row = rows.get(it.relative_path)!;
      // Small text files are shown inline, read on the server (never more than 64 KB).
      const text = preview === 'text' && it.size > 0 ? await readHead(rt, row.storageKey, it.size) : undefined;
      return { ...it, preview, text };
    }),
  );
  return <ShareView share={{ ...share, items }} />;
}

const TEXT_PREVIEW_BYTES = 64 * 1024;

async function readHead(rt: Awaited<ReturnType<typeof getRuntime>>, key: string, size: number): Promise<string | undefined> {
  try {
    const end = Math.min(size, TEXT_PREVIEW_BYTES) - 1;
    const { body } = await rt.storage.get(key, { start: 0, end });
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(Buffer.from(c));
    const text = Buffer.concat(chunks).toString('utf8');
    return size > TEXT_PREVIEW_BYTES ? `${text}\n…` : text;
  } catch {
    return undefined;
  }
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
