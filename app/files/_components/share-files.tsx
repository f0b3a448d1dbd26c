'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/app/_components/client-ui';
import { Button, ErrorText } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { isJunk, type PickedFile } from '@/lib/client/collect-files';
import { useDescribeError } from '@/lib/client/error-text';
import { formatBytes } from '@/lib/client/format';
import { forgetPendingUpload, type PendingUpload } from '@/lib/client/pending-uploads';
import { endpointPath } from '@/lib/contract/endpoints';
import type { ShareDto, ShareItemDto, ShareSummaryDto } from '@/lib/contract/dtos';
import { FilePicker } from './file-picker';
import { ResumeDialog } from './resume-dialog';
import { UploadProgressView } from './upload-progress';
import { PauseCancelButtons, PausedText, StopConfirmDialog, useStoppedMessage, type StopChoice } from './upload-stop';
import type { UploadRunner } from './use-upload-runner';

/** What stopped an addition, in words (the share itself stays as it was). */
function useStopped() {
  const t = useTranslations('additions');
  const stoppedMessage = useStoppedMessage();
  return (err: unknown) => stoppedMessage(err, t('cancelled'));
}

/**
 * A published share's files, opened from its row: each with its size and (for who may change
 * the share) a Remove with a confirm step, and "Add files" — picked or dropped like a new
 * share, sent on the same resumable protocol as an addition that guests see all at once when
 * it completes (POST /api/shares/upload/init with share_id). The items are fetched when opened
 * and again whenever the share's counts change.
 */
export function ShareFiles({
  share: s,
  canAdd,
  canRemove,
  adder,
  busy,
  onChanged,
}: {
  share: ShareSummaryDto;
  /** The caller owns the share (only the owner adds to it). */
  canAdd: boolean;
  /** The owner, or the administrator. */
  canRemove: boolean;
  /** The console's runner for additions. */
  adder: UploadRunner;
  /** Some upload is running in this tab: no second one starts. */
  busy: boolean;
  onChanged: () => void;
}) {
  const t = useTranslations('additions');
  const words = useTranslations('upload');
  const locale = useLocale();
  const describeError = useDescribeError();
  const stopped = useStopped();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<ShareItemDto[] | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [adding, setAdding] = useState(false);
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [handles, setHandles] = useState<FileSystemHandle[] | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [confirmStop, setConfirmStop] = useState<StopChoice>(null);
  const running = adder.progress !== null && adder.target === s.id;
  const paused = adder.paused?.shareId === s.id && !running ? adder.paused : null;
  const total = picked.reduce((n, p) => n + p.file.size, 0);

  useEffect(() => {
    if (!open) return;
    let live = true;
    callOperation('getShare', { params: { id: s.id } }).then(
      (r) => live && setItems(r.share.items),
      (err) => live && setError(describeError(err)),
    );
    return () => {
      live = false;
    };
  }, [open, s.id, s.file_count, s.total_bytes, describeError]);

  function pick(list: PickedFile[], dropped: FileSystemHandle[] | null) {
    setError('');
    setNotice('');
    const merged = new Map(picked.map((p) => [p.path, p]));
    for (const f of list) if (!isJunk(f.path)) merged.set(f.path, f);
    setPicked([...merged.values()]);
    setHandles(dropped && (picked.length === 0 || handles) ? [...(handles ?? []), ...dropped] : null);
  }

  async function finish(upload: () => Promise<ShareDto>) {
    setError('');
    setNotice('');
    try {
      const whole = await upload();
      const before = items?.length ?? s.file_count;
      setItems(whole.items);
      setNotice(t('added', { added: whole.file_count - before, total: whole.file_count }));
      setPicked([]);
      setHandles(null);
      setAdding(false);
    } catch (err) {
      setError(stopped(err));
    } finally {
      onChanged();
    }
  }

  function start() {
    if (picked.length === 0) return setError(t('chooseFirst'));
    const have = new Set((items ?? []).map((it) => it.relative_path.toLowerCase()));
    const taken = picked.filter((p) => have.has(p.path.toLowerCase())).map((p) => p.path);
    if (taken.length) {
      // Three names, then how many more: one list in the reader's language.
      const named = taken.slice(0, 3).map((name) => t('quoted', { name }));
      const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format([...named, ...(taken.length > 3 ? [words('more', { count: taken.length - 3 })] : [])]);
      return setError(t('taken', { list, count: taken.length }));
    }
    void finish(() => adder.add(s.id, picked, handles ?? undefined));
  }

  async function remove(path: string) {
    setRemoving(null);
    setError('');
    setNotice('');
    try {
      await api(`${endpointPath('deleteShareItem', { id: s.id })}?${new URLSearchParams({ path })}`, { method: 'DELETE' });
      setItems((xs) => (xs ?? []).filter((it) => it.relative_path !== path));
      setNotice(t('removed', { path }));
    } catch (err) {
      setError(describeError(err));
    }
    onChanged();
  }

  return (
    <details className="mt-1 text-xs text-muted" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="items-panel">
      <summary className="cursor-pointer max-sm:py-2">{t('summary', { count: s.file_count })}</summary>
      <div className="mt-2 space-y-2">
        {canAdd ? (
          <div className="space-y-2">
            {!adding && !running && !paused ? (
              <Button variant="secondary" onClick={() => (setAdding(true), setNotice(''))} disabled={busy}>
                {t('addFiles')}
              </Button>
            ) : null}
            {adding && !running && !paused ? (
              <div className="space-y-2 rounded-lg border border-zinc-200 p-3 text-sm text-zinc-800 dark:border-zinc-800 dark:text-zinc-200">
                <FilePicker onFiles={pick} disabled={busy} prompt={t('drop')} testIdPrefix="add-" />
                {picked.length > 0 ? (
                  <>
                    <p>{words('picked', { count: picked.length, size: formatBytes(total, locale) })}</p>
                    <ul className="max-h-32 overflow-auto text-xs text-subtle">
                      {picked.slice(0, 200).map((p) => (
                        <li key={p.path} className="flex justify-between gap-2">
                          <bdi className="truncate">{p.path}</bdi>
                          <span className="shrink-0">{formatBytes(p.file.size, locale)}</span>
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                <p className="text-xs text-muted">{t('guestsKeep')}</p>
                <div className="flex flex-wrap gap-2">
                  <Button onClick={start} disabled={busy || picked.length === 0}>
                    {t('addN', { count: picked.length })}
                  </Button>
                  <Button variant="secondary" onClick={() => (setAdding(false), setPicked([]), setHandles(null), setError(''))}>
                    {words('close')}
                  </Button>
                </div>
              </div>
            ) : null}
            {running && adder.progress ? (
              <div className="rounded-lg border border-zinc-200 p-3 text-sm text-zinc-800 dark:border-zinc-800 dark:text-zinc-200">
                <p className="font-medium">{adder.resuming ? t('resuming') : t('adding')}</p>
                <UploadProgressView progress={adder.progress} />
                <div className="mt-3 flex flex-wrap gap-2">
                  <PauseCancelButtons onPause={adder.pause} onCancel={() => setConfirmStop('cancel')} />
                </div>
              </div>
            ) : null}
            {paused ? (
              <div className="space-y-2 rounded-lg border border-zinc-200 p-3 text-sm text-zinc-800 dark:border-zinc-800 dark:text-zinc-200" data-testid="add-paused">
                <p aria-live="polite">
                  <PausedText paused={paused} />
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button onClick={() => void finish(adder.continuePaused)} disabled={busy}>
                    {words('continue')}
                  </Button>
                  <Button variant="secondary" onClick={() => setConfirmStop('discard')}>
                    {words('discard')}
                  </Button>
                </div>
              </div>
            ) : null}
          </div>
        ) : null}
        <ErrorText>{error}</ErrorText>
        {notice ? (
          <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-800 dark:bg-green-950 dark:text-green-300">
            {notice}
          </p>
        ) : null}
        {items === null && !error ? <p>{t('loading')}</p> : null}
        {items ? (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={t('listLabel')}>
            {items.map((it) => (
              <li key={it.relative_path} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-1" data-testid="item-row">
                <a href={`${s.url}/${it.relative_path.split('/').map(encodeURIComponent).join('/')}`} target="_blank" rel="noreferrer" className="min-w-0 break-all text-zinc-800 hover:underline dark:text-zinc-200">
                  <bdi>{it.relative_path}</bdi>
                </a>
                <span className="ms-auto flex items-center gap-2">
                  <span>{formatBytes(it.size, locale)}</span>
                  {canRemove && items.length > 1 ? (
                    <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setRemoving(it.relative_path)} aria-label={t('removeLabel', { name: it.relative_path })} disabled={running}>
                      {t('remove')}
                    </Button>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {canRemove && items?.length === 1 ? <p>{t('onlyFile')}</p> : null}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t('removeTitle', { name: removing ?? '' })}
        text={t('removeText')}
        action={t('removeFile')}
        cancelLabel={words('cancel')}
        onConfirm={() => void remove(removing!)}
        onClose={() => setRemoving(null)}
      />
      <StopConfirmDialog
        choice={confirmStop}
        titles={{ cancel: t('cancelTitle'), discard: t('discardTitle') }}
        cancelAction={t('cancelAdding')}
        text={t('stopText')}
        onCancel={adder.cancel}
        onDiscard={() => void adder.discardPaused().then(() => (setError(''), setNotice(t('discarded')), onChanged()))}
        onClose={() => setConfirmStop(null)}
      />
    </details>
  );
}

/**
 * An addition to this share that a reload, a crash or a closed tab interrupted (this browser's
 * IndexedDB record): Resume with the same files sends only what is missing; Discard frees it.
 */
export function InterruptedAddition({
  share,
  record,
  busy,
  adder,
  onChanged,
}: {
  share: ShareSummaryDto;
  record: PendingUpload;
  busy: boolean;
  adder: UploadRunner;
  onChanged: () => void;
}) {
  const t = useTranslations('additions');
  const words = useTranslations('upload');
  const describeError = useDescribeError();
  const stopped = useStopped();
  const [open, setOpen] = useState<null | 'resume' | 'discard'>(null);
  const [error, setError] = useState('');
  async function resume(picked: PickedFile[]) {
    setOpen(null);
    setError('');
    try {
      await adder.resume(record.groupId, picked, record);
    } catch (err) {
      setError(stopped(err));
    } finally {
      onChanged();
    }
  }
  async function discard() {
    setOpen(null);
    try {
      await callOperation('abortUpload', { body: { groupId: record.groupId } });
    } catch (err) {
      // Already gone (the janitor, another tab): nothing is left to discard.
      if ((err as { status?: number }).status !== 404) return setError(describeError(err));
    }
    await forgetPendingUpload(record.groupId);
    onChanged();
  }
  return (
    <div className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-300" data-testid="interrupted-addition">
      <p>
        {t('interrupted', { count: record.files.length, done: record.partsDone.length, total: record.totalParts })}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button onClick={() => setOpen('resume')} disabled={busy}>
          {t('resumeAdding')}
        </Button>
        <Button variant="secondary" onClick={() => setOpen('discard')} disabled={busy}>
          {words('discard')}
        </Button>
      </div>
      <ErrorText>{error}</ErrorText>
      <ResumeDialog share={share} record={record} open={open === 'resume'} onClose={() => setOpen(null)} onResume={(picked) => void resume(picked)} />
      <ConfirmDialog
        open={open === 'discard'}
        title={t('discardTitle')}
        text={t('stopText')}
        action={words('discard')}
        cancelLabel={words('cancel')}
        onConfirm={() => void discard()}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
