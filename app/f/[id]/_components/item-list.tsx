'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { FolderIcon } from '@/app/_components/icons';
import { formatBytes } from '@/lib/format-bytes';
import { encodeUrlPath } from '@/lib/paths/relative-path';
import { LazyPreview } from './lazy-preview';

export type { DownloadLimit, ShareViewItem as Item } from '@/lib/contract/pages';
import type { DownloadLimit, ShareViewItem as Item } from '@/lib/contract/pages';

/** Rows rendered at first (and on the server); "Show more" adds as many again. */
const PAGE = 60;

/** A video's length as m:ss (h:mm:ss past an hour). */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const mmss = `${Math.floor((s % 3600) / 60)}:${String(s % 60).padStart(2, '0')}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, '0')}` : mmss;
}

const itemUrl = (shareId: string, path: string) => `/f/${shareId}/${encodeUrlPath(path)}`;
const folderZipUrl = (shareId: string, folder: string) => `/f/${shareId}/?zip&folder=${encodeURIComponent(folder)}`;

/** Items grouped by folder, folders in path order, so a shared tree reads as a tree. */
function byFolder(items: Item[]): [string, Item[]][] {
  const groups = new Map<string, Item[]>();
  for (const it of items) {
    const cut = it[0].lastIndexOf('/');
    const folder = cut < 0 ? '' : it[0].slice(0, cut);
    const list = groups.get(folder);
    if (list) list.push(it);
    else groups.set(folder, [it]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
}

/** Files and bytes under each folder, subfolders included: what its ZIP holds. */
function folderTotals(items: Item[]): Map<string, { files: number; bytes: number }> {
  const totals = new Map<string, { files: number; bytes: number }>();
  for (const [path, size] of items) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const f = parts.slice(0, i).join('/');
      const t = totals.get(f) ?? { files: 0, bytes: 0 };
      t.files++;
      t.bytes += size;
      totals.set(f, t);
    }
  }
  return totals;
}

/** The share's files by folder, a page at a time, each folder with its own ZIP download. */
export function ItemList({ shareId, items, limit }: { shareId: string; items: Item[]; limit: DownloadLimit | null }) {
  const t = useTranslations('share');
  const [shown, setShown] = useState(PAGE);
  const groups = useMemo(() => byFolder(items), [items]);
  const totals = useMemo(() => folderTotals(items), [items]);
  let left = shown;
  const visible: [string, Item[]][] = [];
  for (const [folder, list] of groups) {
    if (left <= 0) break;
    visible.push([folder, list.slice(0, left)]);
    left -= list.length;
  }
  return (
    <>
      {visible.map(([folder, list]) => (
        <section key={folder || '.'} className="mb-6" aria-label={folder || t('files')}>
          {folder ? <FolderHeading shareId={shareId} folder={folder} total={totals.get(folder)!} limited={limit !== null} spent={limit?.left === 0} /> : null}
          <ul className="space-y-3">
            {list.map((it) => (
              <Row key={it[0]} shareId={shareId} item={it} limit={limit} />
            ))}
          </ul>
        </section>
      ))}
      {shown < items.length ? (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={() => setShown((n) => n + PAGE)}
            className="min-h-11 rounded-md border border-zinc-300 px-4 py-2 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            {t('showMore', { count: Math.min(PAGE, items.length - shown) })}
          </button>
          <span className="text-sm text-muted">{t('shownOf', { shown, total: items.length })}</span>
        </div>
      ) : null}
    </>
  );
}

function FolderHeading({
  shareId,
  folder,
  total,
  limited,
  spent,
}: {
  shareId: string;
  folder: string;
  total: { files: number; bytes: number };
  limited: boolean;
  spent: boolean;
}) {
  const t = useTranslations('share');
  const locale = useLocale();
  // The folder's path in its own direction (a Latin path keeps its order in Arabic text).
  const path = <bdi className="break-all">{folder}/</bdi>;
  if (spent) {
    return (
      <h2 className="mb-2 flex flex-wrap items-center gap-2 text-sm font-semibold text-subtle">
        <span aria-hidden>📁</span>
        {path}
      </h2>
    );
  }
  return (
    <h2 className="mb-2 flex flex-wrap items-center gap-2 text-sm font-semibold text-subtle">
      <FolderIcon />
      {path}
      <a
        href={folderZipUrl(shareId, folder)}
        download={limited ? undefined : true}
        className="inline-flex min-h-11 items-center rounded-md px-2 font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
      >
        {t.rich('folderZip', { count: total.files, size: formatBytes(total.bytes, locale), folder, sr: (chunks) => <span className="sr-only">{chunks}</span> })}
      </a>
    </h2>
  );
}

function Row({ shareId, item: [path, size, preview, picture], limit }: { shareId: string; item: Item; limit: DownloadLimit | null }) {
  const t = useTranslations('share');
  const locale = useLocale();
  const name = path.split('/').pop()!;
  const url = itemUrl(shareId, path);
  const spent = limit?.left === 0;
  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex min-w-0 items-center gap-3">
          {picture ? (
            // The poster or thumbnail made once after upload (never counts as a download).
            <img
              className="h-12 w-12 shrink-0 rounded-md bg-zinc-100 object-cover dark:bg-zinc-800"
              src={`${url}?poster`}
              width={48}
              height={48}
              alt=""
              loading="lazy"
              decoding="async"
            />
          ) : null}
          {spent ? (
            <bdi className="break-all font-medium" title={path}>
              {name}
            </bdi>
          ) : (
            <a href={url} className="break-all font-medium hover:underline" title={path}>
              <bdi>{name}</bdi>
            </a>
          )}
        </span>
        <span className="flex items-center gap-3 text-sm text-muted">
          {picture?.[2] ? (
            <span title={t('duration')} dir="ltr">
              {duration(picture[2])}
            </span>
          ) : null}
          <span>{formatBytes(size, locale)}</span>
          {spent ? (
            <button
              type="button"
              disabled
              title={t('noneLeft')}
              aria-label={t('downloadNoneLeft', { name })}
              className="min-h-11 cursor-not-allowed rounded-md bg-zinc-300 px-3 font-medium text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400"
            >
              {t('download')}
            </button>
          ) : (
            <a
              className="inline-flex min-h-11 items-center rounded-md bg-indigo-600 px-3 font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
              href={`${url}?download=1`}
              // With a limit, no `download` attribute: the response is an attachment anyway, and a
              // refusal (the last download taken since this page loaded) then shows its page
              // instead of failing silently in the downloads bar.
              download={limit ? undefined : name}
              aria-label={t('downloadName', { name })}
            >
              {t('download')}
            </a>
          )}
        </span>
      </div>
      {preview && size > 0 ? <LazyPreview url={url} name={name} size={size} kind={preview} playCounts={limit ? !spent : null} poster={picture ? `${url}?poster` : undefined} /> : null}
    </li>
  );
}
