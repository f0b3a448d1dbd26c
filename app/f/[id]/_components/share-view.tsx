import { formatBytes } from '@/lib/format-bytes';
import { shareTitle } from '@/lib/share-title';
import { ItemList } from './item-list';
import { LimitRefresh } from './limit-refresh';
import { LocalTime, RelativeTime } from './local-time';

export type { ViewShare } from '@/lib/contract/pages';
import type { DownloadLimit, ViewShare } from '@/lib/contract/pages';

/** The guest view: note, who shared it and when, expiry, "Download all", then the item list. */
export function ShareView({ share }: { share: ViewShare }) {
  const n = share.items.length;
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <header className="mb-6">
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">htmls · shared with you</p>
        <h1 className="mt-1 break-words text-2xl font-semibold">{shareTitle(share.note, [...share.items].map((i) => i[0]).sort()[0], n)}</h1>
        {share.note && share.note.includes('\n') ? (
          <p className="mt-2 whitespace-pre-wrap break-words text-zinc-700 dark:text-zinc-300">{share.note}</p>
        ) : null}
        <p className="mt-2 text-sm text-subtle" data-testid="shared-by">
          Shared by <strong className="font-semibold text-zinc-800 dark:text-zinc-200">{share.sharedBy}</strong>{' '}
          <RelativeTime iso={share.createdAt} /> (<LocalTime iso={share.createdAt} />)
        </p>
        {share.expiresAt ? (
          <p className="mt-1 text-sm text-subtle" data-testid="expiry">
            Available until <LocalTime iso={share.expiresAt} /> · <RelativeTime iso={share.expiresAt} prefix="expires " />
          </p>
        ) : null}
        <LimitNotice limit={share.limit} />
        {share.limit ? <LimitRefresh shareId={share.id} /> : null}
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {share.limit?.left === 0 ? (
            <button type="button" disabled className="min-h-11 cursor-not-allowed rounded-md bg-zinc-300 px-4 py-2 font-medium text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
              {`Download all (${n} ${n === 1 ? 'file' : 'files'}, ${formatBytes(share.totalBytes)})`}
            </button>
          ) : (
            <a
              href={`/f/${share.id}/?zip`}
              download={share.limit ? undefined : true}
              className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
            >
              {`Download all (${n} ${n === 1 ? 'file' : 'files'}, ${formatBytes(share.totalBytes)})`}
            </a>
          )}
          <span className="text-xs text-muted">One ZIP; an interrupted download resumes.</span>
        </div>
      </header>
      <ItemList shareId={share.id} items={share.items} limit={share.limit} />
    </main>
  );
}

/** "3 downloads left" (previews never count), or why the buttons are off. */
function LimitNotice({ limit }: { limit: DownloadLimit | null }) {
  if (!limit) return null;
  if (limit.left === 0) {
    return (
      <p role="status" data-testid="download-limit" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
        {`This share has been downloaded the ${limit.max === 1 ? 'one time' : `${limit.max} times`} its owner allowed, so its files can no longer be downloaded. Previews still show here; ask whoever sent you the link if you need the files.`}
      </p>
    );
  }
  return (
    <p data-testid="download-limit" className="mt-3 text-sm text-subtle">
      <strong className="font-semibold text-zinc-800 dark:text-zinc-200">{`${limit.left} ${limit.left === 1 ? 'download' : 'downloads'} left`}</strong>
      {` of ${limit.max}. Each file or ZIP you download uses one (resuming it does not); previews and opening this page do not.`}
    </p>
  );
}
