import { getLocale, getTranslations } from 'next-intl/server';
import { formatBytes } from '@/lib/format-bytes';
import { ItemList } from './item-list';
import { LimitRefresh } from './limit-refresh';
import { LocalTime, RelativeTime } from './local-time';
import { ShareHeading } from './share-title';

export type { ViewShare } from '@/lib/contract/pages';
import type { DownloadLimit, ViewShare } from '@/lib/contract/pages';

type ShareT = Awaited<ReturnType<typeof getTranslations<'share'>>>;

/** The owner's name, kept in its own direction (a Latin name inside Arabic text, or the reverse). */
const owner = (chunks: React.ReactNode) => (
  <strong className="font-semibold text-zinc-800 dark:text-zinc-200" dir="auto">
    {chunks}
  </strong>
);

/**
 * The guest view, in the guest's language: note, who shared it and when, expiry, "Download
 * all", then the item list. Counts are ICU plurals, sizes and dates Intl's (messages: `share`).
 */
export async function ShareView({ share }: { share: ViewShare }) {
  const [t, locale] = await Promise.all([getTranslations('share'), getLocale()]);
  const n = share.items.length;
  const allLabel = t('downloadAll', { count: n, size: formatBytes(share.totalBytes, locale) });
  const when = { ago: () => <RelativeTime iso={share.createdAt} />, date: () => <LocalTime iso={share.createdAt} /> };
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <header className="mb-6">
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">{t('eyebrow')}</p>
        <ShareHeading share={share} />
        {share.note && share.note.includes('\n') ? (
          <p className="mt-2 whitespace-pre-wrap break-words text-zinc-700 dark:text-zinc-300" dir="auto">
            {share.note}
          </p>
        ) : null}
        <p className="mt-2 text-sm text-subtle" data-testid="shared-by">
          {share.sharedBy === null ? t.rich('sharedByAdmin', { b: owner, ...when }) : t.rich('sharedBy', { name: share.sharedBy, b: owner, ...when })}
        </p>
        {share.expiresAt ? (
          <p className="mt-1 text-sm text-subtle" data-testid="expiry">
            {t.rich('expiry', { date: () => <LocalTime iso={share.expiresAt!} />, rel: () => <RelativeTime iso={share.expiresAt!} expires /> })}
          </p>
        ) : null}
        <LimitNotice limit={share.limit} t={t} />
        {share.limit ? <LimitRefresh shareId={share.id} /> : null}
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {share.limit?.left === 0 ? (
            <button type="button" disabled className="min-h-11 cursor-not-allowed rounded-md bg-zinc-300 px-4 py-2 font-medium text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
              {allLabel}
            </button>
          ) : (
            <a
              href={`/f/${share.id}/?zip`}
              download={share.limit ? undefined : true}
              className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
            >
              {allLabel}
            </a>
          )}
          <span className="text-xs text-muted">{t('zipHint')}</span>
        </div>
      </header>
      <ItemList shareId={share.id} items={share.items} limit={share.limit} />
    </main>
  );
}

/** "3 downloads left" (previews never count), or why the buttons are off. */
function LimitNotice({ limit, t }: { limit: DownloadLimit | null; t: ShareT }) {
  if (!limit) return null;
  if (limit.left === 0) {
    return (
      <p role="status" data-testid="download-limit" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
        {t('limitSpent', { max: limit.max })}
      </p>
    );
  }
  return (
    <p data-testid="download-limit" className="mt-3 text-sm text-subtle">
      {t.rich('limitLeft', { left: limit.left, max: limit.max, b: (chunks) => <strong className="font-semibold text-zinc-800 dark:text-zinc-200">{chunks}</strong> })}
    </p>
  );
}
