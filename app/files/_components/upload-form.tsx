'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button, Card, ErrorText, Field } from '@/app/_components/ui';
import { isJunk, type PickedFile } from '@/lib/client/collect-files';
import { formatBytes } from '@/lib/client/format';
import { useSharedItems } from '@/lib/client/use-shared-items';
import type { ShareDto } from '@/lib/contract/dtos';
import { DownloadLimitField } from './download-limit-field';
import { ExpiryPicker, expiryFromChoice, type ExpiryChoice } from './expiry-picker';
import { FilePicker } from './file-picker';
import { ShareCreated, UploadProgressView } from './upload-progress';
import { PauseCancelButtons, PausedText, StopConfirmDialog, useStoppedMessage, type StopChoice } from './upload-stop';
import type { UploadRunner } from './use-upload-runner';
import { interruptedNotice } from '@/lib/client/pending-wording';
import { onAsync } from '@/lib/client/on-async';

export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/** The "New share" card: pick or drop, note, expiry, password, then the upload's progress. */
export function UploadForm({
  runner,
  free,
  resumable,
  guestsPending = 0,
  blocked = false,
  onDone,
  onShowList,
}: {
  runner: UploadRunner;
  free: number;
  resumable: number;
  /** Guests' unfinished uploads to the member's requests: discarded here, resumed only by their senders. */
  guestsPending?: number;
  /** Files are being added to a share: one upload at a time. */
  blocked?: boolean;
  onDone: () => void;
  /** Where the list is elsewhere (the phone layout's Shares tab): a way there from the notice. */
  onShowList?: () => void;
}) {
  const t = useTranslations('upload');
  const locale = useLocale();
  const stoppedMessage = useStoppedMessage();
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [handles, setHandles] = useState<FileSystemHandle[] | null>(null);
  const [note, setNote] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoice>({ days: 7 });
  const [password, setPassword] = useState('');
  // A generated password is stored hashed: the link-ready panel shows it this once.
  const [generated, setGenerated] = useState(false);
  const [limit, setLimit] = useState('');
  const [error, setError] = useState('');
  const [result, setResult] = useState<{ share: ShareDto; password: string | null } | null>(null);
  const [confirm, setConfirm] = useState<StopChoice>(null);
  const uploading = runner.progress !== null;
  const paused = runner.paused;
  // The one paused here is continued from this card, not from the list.
  const interrupted = resumable - (paused ? 1 : 0);
  const total = picked.reduce((n, p) => n + p.file.size, 0);

  // Files sent from another app through the system share sheet (the installed app's share target).
  useSharedItems(({ files, text, missing }) => {
    if (missing) return setError(t('sharedMissing'));
    add(files, null);
    if (text) setNote((n) => n || text.slice(0, 2000));
  });

  function add(files: PickedFile[], dropped: FileSystemHandle[] | null) {
    setResult(null);
    setError('');
    const merged = new Map(picked.map((p) => [p.path, p]));
    for (const f of files) if (!isJunk(f.path)) merged.set(f.path, f);
    setPicked([...merged.values()]);
    // Handles only help when every file came from drops.
    setHandles(dropped && (picked.length === 0 || handles) ? [...(handles ?? []), ...dropped] : null);
  }

  async function start() {
    setError('');
    setResult(null);
    if (picked.length === 0) return setError(t('chooseFirst'));
    if (total > free) {
      return setError(t('overQuota', { need: formatBytes(total, locale), free: formatBytes(free, locale), unfinished: resumable ? 'yes' : 'no' }));
    }
    const expiresAt = expiryFromChoice(expiry);
    // A typed date skips the field's min: a link dead on arrival is never made (the server refuses it too).
    if (expiresAt && Date.parse(expiresAt) <= Date.now()) return setError(t('pastExpiry'));
    await finish(() => runner.start(picked, { note, expiresAt, password, maxDownloads: limit ? Number(limit) : null }, handles ?? undefined));
  }

  /** Runs a new or paused upload to its end: the link, or what stopped it. */
  async function finish(upload: () => Promise<ShareDto>) {
    setError('');
    try {
      const share = await upload();
      setResult({ share, password: generated && password ? password : null });
      setPicked([]);
      setHandles(null);
      setNote('');
      setPassword('');
      setGenerated(false);
      setLimit('');
    } catch (err) {
      setError(stoppedMessage(err, t('cancelled')));
    } finally {
      onDone();
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">{t('newShare')}</h2>
      {(interrupted > 0 || guestsPending > 0) && !uploading ? (
        <p className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-300" data-testid="interrupted-notice">
          {interruptedNotice(Math.max(0, interrupted), guestsPending, t)}
          {onShowList ? (
            <>
              {' '}
              <button type="button" onClick={onShowList} className="font-medium underline max-sm:inline-flex max-sm:min-h-11 max-sm:items-center">
                {t('openShares')}
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="mt-3">
        <FilePicker onFiles={add} disabled={uploading || paused !== null} media />
      </div>
      {picked.length > 0 ? (
        <div className="mt-3 text-sm">
          <div className="flex items-center justify-between">
            <span>{t('picked', { count: picked.length, size: formatBytes(total, locale) })}</span>
            {!uploading ? (
              <Button variant="ghost" onClick={() => (setPicked([]), setHandles(null))}>
                {t('clear')}
              </Button>
            ) : null}
          </div>
          <ul className="mt-1 max-h-40 overflow-auto text-xs text-subtle">
            {picked.slice(0, 200).map((p) => (
              <li key={p.path} className="flex justify-between gap-2">
                <bdi className="truncate">{p.path}</bdi>
                <span className="shrink-0">{formatBytes(p.file.size, locale)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field label={t('note')} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} disabled={uploading} />
        <ExpiryPicker value={expiry} onChange={setExpiry} disabled={uploading} />
        <div className="flex items-end gap-2 sm:col-span-2">
          <div className="flex-1">
            <Field label={t('password')} value={password} onChange={(e) => (setPassword(e.target.value), setGenerated(false))} autoComplete="off" disabled={uploading} />
          </div>
          <Button type="button" variant="secondary" onClick={() => (setPassword(generatePassword()), setGenerated(true))} disabled={uploading}>
            {t('generate')}
          </Button>
        </div>
        <DownloadLimitField label={t('limit')} value={limit} onChange={setLimit} disabled={uploading} />
      </div>
      {runner.progress && runner.resuming ? <p className="mt-4 text-sm font-medium">{t('resuming')}</p> : null}
      {runner.progress ? <UploadProgressView progress={runner.progress} /> : null}
      <div className="mt-4 space-y-3">
        <ErrorText>{error}</ErrorText>
        {paused && !uploading ? (
          <p className="text-sm" data-testid="upload-paused" aria-live="polite">
            <PausedText paused={paused} />
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {paused && !uploading ? (
            <>
              <Button onClick={onAsync(() => finish(runner.continuePaused))}>{t('continue')}</Button>
              <Button variant="secondary" onClick={() => setConfirm('discard')}>
                {t('discard')}
              </Button>
            </>
          ) : (
            <Button onClick={onAsync(start)} disabled={uploading || blocked || picked.length === 0}>
              {t('create')}
            </Button>
          )}
          {uploading ? <PauseCancelButtons onPause={runner.pause} onCancel={() => setConfirm('cancel')} /> : null}
        </div>
        <StopConfirmDialog
          choice={confirm}
          titles={{ cancel: t('cancelTitle'), discard: t('discardTitle') }}
          cancelAction={t('cancelUpload')}
          text={t('stopText')}
          onCancel={runner.cancel}
          onDiscard={() => void runner.discardPaused().then(() => (setError(t('discarded')), onDone()))}
          onClose={() => setConfirm(null)}
        />
        {result ? <ShareCreated share={result.share} password={result.password} /> : null}
      </div>
    </Card>
  );
}
