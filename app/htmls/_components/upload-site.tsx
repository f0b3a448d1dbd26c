'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { DropZone } from '@/app/_components/drop-zone';
import { CopyButton } from '@/app/_components/client-ui';
import { Button, Card, Checkbox, CHECKBOX_LABEL, ErrorText, Field, ProgressBar, richTags } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { endpointPath } from '@/lib/contract/endpoints';
import { pageQueryString } from '@/lib/contract/list-types';
import { LIST_MAX_LIMIT } from '@/lib/contract/lists';
import type { ResponseOf } from '@/lib/contract/operations';
import { filesFromDrop, filesFromList, isJunk, type PickedFile } from '@/lib/client/collect-files';
import { formatBytes, formatEtaIn } from '@/lib/client/format';
import { useDescribeError } from '@/lib/client/error-text';
import { uploadSite, type SiteUploadResult } from '@/lib/client/hosted-upload';
import { isPrivatePath } from '@/lib/client/private-paths';
import { SpeedMeter } from '@/lib/client/share-upload';
import { useSettled } from '@/lib/client/use-paged-list';
import type { ProjectDto } from '@/lib/contract/dtos';
import { siteUrl } from '@/lib/hosting/site-url';
import { SLUG } from '@/lib/hosting/slug-grammar';
import { onAsync } from '@/lib/client/on-async';
import { BuildWarning, ZipSkipped } from './build-warning';

const randomSlug = () => {
  const a = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => a[b % a.length]).join('');
};

type Mode = 'append' | 'replace';

/** Publish a folder, some files or one .zip as a new project or a new deploy of one. */
export function UploadSite({ hostedBase, onDone }: { hostedBase: string | null; onDone: () => void }) {
  const t = useTranslations('sites');
  const tp = useTranslations('progress');
  const locale = useLocale();
  const describeError = useDescribeError();
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [includePrivate, setIncludePrivate] = useState(false);
  const [slug, setSlug] = useState('');
  const [note, setNote] = useState('');
  const [password, setPassword] = useState('');
  const [mode, setMode] = useState<Mode>('replace');
  const [spa, setSpa] = useState(false);
  const [progress, setProgress] = useState<{ loaded: number; total: number; speed: number } | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState<SiteUploadResult | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => folderInput.current?.setAttribute('webkitdirectory', ''), []);

  const kept = picked.filter((f) => includePrivate || !isPrivatePath(f.path));
  const skipped = picked.length - kept.length;
  const total = kept.reduce((n, p) => n + p.file.size, 0);
  const exists = useProjectExists(slug, done);
  const isZip = kept.length === 1 && /\.zip$/i.test(kept[0].path);
  const add = (files: PickedFile[]) => {
    setDone(null);
    setError('');
    setPicked(files.filter((f) => !isJunk(f.path)));
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone(null);
    if (kept.length === 0) return setError(t('noFiles'));
    if (slug && !new RegExp(`^${SLUG}$`).test(slug)) return setError(t('badSlug'));
    const controller = new AbortController();
    abortRef.current = controller;
    const meter = new SpeedMeter();
    setProgress({ loaded: 0, total, speed: 0 });
    try {
      const result = await uploadSite(kept, {
        slug: slug || undefined,
        note,
        password,
        append: exists && mode === 'append',
        replace: exists && mode === 'replace',
        spa: spa || undefined,
        dotfiles: includePrivate || undefined,
        signal: controller.signal,
        onProgress: (loaded, all) => {
          meter.add(loaded);
          setProgress({ loaded, total: all, speed: meter.speed() });
        },
      });
      setDone(result);
      setPicked([]);
      setSlug('');
      setNote('');
      setPassword('');
      setSpa(false);
      onDone();
    } catch (err) {
      setError((err as Error).name === 'AbortError' ? t('cancelled') : describeError(err));
    } finally {
      setProgress(null);
      abortRef.current = null;
    }
  }

  const link = done ? siteUrl(hostedBase, done.project.slug) : '';
  return (
    <Card>
      <h2 className="text-base font-semibold">{t('heading')}</h2>
      <form onSubmit={onAsync(submit)}>
        <DropZone
          testId="site-dropzone"
          className="mt-3"
          onDrop={async (data) => {
            if (!progress) add(await filesFromDrop(data));
          }}
        >
          <p className="text-subtle">{t('drop')}</p>
          <div className="mt-3 flex flex-wrap justify-center gap-2">
            <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
              {t('chooseFolder')}
              <input ref={folderInput} type="file" multiple className="sr-only" onChange={(e) => add(filesFromList(e.target.files))} data-testid="site-folder-input" />
            </label>
            <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
              {t('chooseFiles')}
              <input type="file" multiple className="sr-only" onChange={(e) => add(filesFromList(e.target.files))} data-testid="site-files-input" />
            </label>
          </div>
          {picked.length > 0 ? (
            <p className="mt-3 font-medium" data-testid="site-picked">
              {isZip ? t.rich('pickedZip', { name: kept[0].path, size: formatBytes(total, locale), ...richTags }) : t('picked', { count: kept.length, size: formatBytes(total, locale) })}
            </p>
          ) : null}
          {skipped > 0 || includePrivate || isZip ? (
            <label className={`${CHECKBOX_LABEL} mt-2 text-xs text-subtle`} data-testid="site-private-note">
              <Checkbox checked={includePrivate} onChange={(e) => setIncludePrivate(e.target.checked)} />
              {includePrivate ? t('includingPrivate') : skipped > 0 ? t('privateSkipped', { count: skipped }) : t('privateInZip')}
            </label>
          ) : null}
        </DropZone>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="flex items-start gap-2">
            <div className="flex-1">
              <Field label={t('slug')} value={slug} placeholder={t('slugPlaceholder')} onChange={(e) => setSlug(e.target.value.toLowerCase())} hint={<bdi dir="ltr">{`/p/${slug || '…'}/`}</bdi>} />
            </div>
            <Button type="button" variant="secondary" className="mt-6" onClick={() => setSlug(randomSlug())}>
              {t('random')}
            </Button>
          </div>
          <Field label={t('note')} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          <Field label={t('password')} value={password} autoComplete="off" onChange={(e) => setPassword(e.target.value)} />
          <div className="space-y-2 self-end text-sm">
            <label className={CHECKBOX_LABEL}>
              <Checkbox checked={spa} onChange={(e) => setSpa(e.target.checked)} />
              {t('spa')}
            </label>
            {exists ? (
              <fieldset className="flex flex-wrap gap-x-4 gap-y-1" aria-label={t('exists', { slug })}>
                <label className="flex items-center gap-2">
                  <input type="radio" name="deploy-mode" checked={mode === 'replace'} onChange={() => setMode('replace')} />
                  <span>{t.rich('replace', { slug, ...richTags })}</span>
                </label>
                <label className="flex items-center gap-2">
                  <input type="radio" name="deploy-mode" checked={mode === 'append'} onChange={() => setMode('append')} />
                  <span>{t.rich('append', { slug, ...richTags })}</span>
                </label>
              </fieldset>
            ) : null}
          </div>
        </div>
        {progress ? (
          <div className="mt-4 space-y-1" data-testid="site-progress">
            <div className="flex justify-between text-sm">
              <span>{tp('sent', { loaded: formatBytes(progress.loaded, locale), total: formatBytes(progress.total, locale) })}</span>
              <span className="text-muted">
                {tp('rate', {
                  speed: tp('speed', { size: formatBytes(progress.speed, locale) }),
                  eta: progress.speed > 0 ? formatEtaIn((progress.total - progress.loaded) / progress.speed, locale, tp('underSecond')) : '—',
                })}
              </span>
            </div>
            <ProgressBar value={progress.loaded} max={progress.total} label={t('progress')} />
          </div>
        ) : null}
        <div className="mt-4 space-y-3">
          <ErrorText>{error}</ErrorText>
          <div className="flex gap-2">
            <Button type="submit" disabled={progress !== null || kept.length === 0}>
              {t('publish')}
            </Button>
            {progress ? (
              <Button type="button" variant="secondary" onClick={() => abortRef.current?.abort()}>
                {t('cancel')}
              </Button>
            ) : null}
          </div>
          {done ? (
            <div role="status" className="space-y-2 rounded-lg bg-green-50 p-3 text-sm dark:bg-green-950">
              <div className="flex flex-wrap items-center gap-3">
                <span className="text-green-800 dark:text-green-300">{t('published')}</span>
                <a href={link} target="_blank" rel="noreferrer" dir="ltr" className="break-all text-indigo-700 underline dark:text-indigo-300" data-testid="site-link">
                  {link}
                </a>
                <CopyButton text={link} label={t('copyLink')} copiedLabel={t('copied')} promptLabel={t('copyPrompt')} />
              </div>
              {done.skipped.length > 0 ? <ZipSkipped names={done.skipped} /> : null}
              {done.warnings.map((w) => (
                <BuildWarning key={w.code} warning={w} />
              ))}
              {!done.project.has_html ? (
                <p className="text-amber-800 dark:text-amber-300" data-testid="site-no-html">
                  {t('noHtml')}
                </p>
              ) : null}
            </div>
          ) : null}
        </div>
      </form>
    </Card>
  );
}

/**
 * Whether a project named `slug` exists (asked by name once the name stops changing: the list
 * holds only the pages loaded). Asked again after an upload (`done`) made it exist.
 */
function useProjectExists(slug: string, done: unknown): boolean {
  const settled = useSettled(slug);
  const [known, setKnown] = useState<{ slug: string; exists: boolean } | null>(null);
  useEffect(() => {
    if (!/^[a-z0-9_-]{1,64}$/.test(settled)) return;
    let live = true;
    // Searched in the list (200 either way) rather than asked for by name: a free name was a 404
    // in the browser's console on every publish. Only when more than a page of projects contain
    // the name is it asked for by name.
    api<ResponseOf<'listProjects'>>(endpointPath('listProjects') + pageQueryString({ q: settled, limit: LIST_MAX_LIMIT }))
      .then((r) => (r.projects.some((p) => p.slug === settled) ? true : r.next_cursor ? callOperation('getProject', { params: { slug: settled } }).then(() => true) : false))
      .then(
        (exists) => live && setKnown({ slug: settled, exists }),
        () => live && setKnown({ slug: settled, exists: false }),
      );
    return () => {
      live = false;
    };
  }, [settled, done]);
  return slug !== '' && known?.slug === slug && known.exists;
}
