'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import { CopyButton, QrCode, ShareLinkButton } from '@/app/_components/client-ui';
import { ProgressBar } from '@/app/_components/ui';
import { formatBytes, formatEtaIn } from '@/lib/client/format';
import type { UploadProgress } from '@/lib/client/upload-engine/types';
import type { ShareDto } from '@/lib/contract/dtos';

export const absolute = (path: string) => (typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString());

/**
 * Bytes, speed and time left for the whole upload, and a bar per file when there are several,
 * in the page's language (the `progress` namespace: the request page /r/<id> shows it too).
 */
export function UploadProgressView({ progress: p }: { progress: UploadProgress }) {
  const t = useTranslations('progress');
  const locale = useLocale();
  const size = (n: number) => formatBytes(n, locale);
  return (
    <div className="mt-4 space-y-2" data-testid="upload-progress">
      <div className="flex flex-wrap justify-between gap-2 text-sm" aria-live="polite">
        <span>{p.stage === 'preparing' ? t('preparing') : p.stage === 'finishing' ? t('finishing') : t('sent', { loaded: size(p.loaded), total: size(p.total) })}</span>
        <span className="text-muted">{p.stage === 'uploading' ? t('rate', { speed: t('speed', { size: size(p.speed) }), eta: formatEtaIn(p.eta, locale, t('underSecond')) }) : ''}</span>
      </div>
      <ProgressBar value={p.loaded} max={p.total} label={t('label')} />
      {p.files.length > 1 ? (
        <ul className="max-h-40 space-y-1 overflow-auto text-xs">
          {p.files.map((f) => (
            <li key={f.clientPath} className="grid grid-cols-[1fr_8rem] items-center gap-2">
              <span className="truncate">
                {f.done ? '✓ ' : ''}
                <bdi>{f.clientPath}</bdi>
              </span>
              <ProgressBar value={f.done ? f.total : f.loaded} max={f.total || 1} label={t('fileLabel', { name: f.clientPath })} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The new link; with the password the form generated, shown this once (the server keeps only its hash). */
export function ShareCreated({ share, password = null }: { share: ShareDto; password?: string | null }) {
  const t = useTranslations('upload');
  const link = absolute(share.url);
  const ref = useRef<HTMLDivElement>(null);
  // On a phone the form fills the screen: bring the new link into view.
  // Braces: Chromium's scrollIntoView now returns a promise, and React calls what an effect
  // returns as its cleanup — picking files for the next share crashed the page ("i is not a function").
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div ref={ref} role="status" className="flex flex-wrap items-center gap-4 rounded-lg bg-green-50 p-4 dark:bg-green-950">
      <QrCode text={link} size={112} alt={t('qr', { link })} />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-sm font-medium text-green-800 dark:text-green-300">{t('ready')}</p>
        <a href={share.url} target="_blank" rel="noreferrer" className="block break-all text-sm text-indigo-700 underline dark:text-indigo-300" data-testid="share-link">
          {link}
        </a>
        <div className="flex flex-wrap gap-2">
          <CopyButton text={link} label={t('copyLink')} copiedLabel={t('copied')} promptLabel={t('copyPrompt')} />
          <ShareLinkButton url={link} title={share.title} label={t('shareLink')} unavailableLabel={t('shareUnavailable')} />
        </div>
        {password ? (
          <div className="space-y-1 border-t border-green-200 pt-2 dark:border-green-900" data-testid="generated-password">
            <p className="text-sm text-green-800 dark:text-green-300">{t('passwordOnce')}</p>
            <div className="flex flex-wrap items-center gap-2">
              <code className="rounded bg-white px-2 py-1 font-mono text-sm select-all dark:bg-zinc-900">{password}</code>
              <CopyButton text={password} label={t('copyPassword')} copiedLabel={t('copied')} promptLabel={t('copyPrompt')} />
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
