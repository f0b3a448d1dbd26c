'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { ConfirmDialog, CopyButton, ShareLinkButton } from '@/app/_components/client-ui';
import { Badge, Button, ErrorText } from '@/app/_components/ui';
import { LockIcon } from '@/app/_components/icons';
import { ApiError, callOperation } from '@/lib/client/api';
import type { PickedFile } from '@/lib/client/collect-files';
import { useDescribeError } from '@/lib/client/error-text';
import { formatBytes, formatDate } from '@/lib/client/format';
import { forgetPendingUpload, type PendingUpload } from '@/lib/client/pending-uploads';
import { discardWording } from '@/lib/client/pending-wording';
import type { BodyOf } from '@/lib/contract/operations';
import type { ShareSummaryDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { ResumeDialog } from './resume-dialog';
import { EditShareDialog, QrDialog } from './share-dialogs';
import { ShareActivity } from './share-activity';
import { InterruptedAddition, ShareFiles } from './share-files';
import { ShareItemDownloads } from './share-item-downloads';
import { absolute } from './upload-progress';
import type { UploadRunner } from './use-upload-runner';

/** The upload running in this tab: its bytes so far (the IndexedDB record is read once, at load). */
export interface LiveUpload {
  groupId: string;
  loaded: number;
  total: number;
}

type Open = null | 'qr' | 'edit' | 'delete' | 'resume';

export function ShareRow({
  share: s,
  mine,
  owned,
  showOwner,
  record,
  addition,
  adder,
  busy,
  live,
  onResume,
  onChanged,
}: {
  share: ShareSummaryDto;
  /** The caller's own share (the administrator also sees everyone else's). */
  mine: boolean;
  /** The caller owns the share, received ones included: files may be added to it. */
  owned: boolean;
  showOwner: boolean;
  record?: PendingUpload;
  /** This browser's record of an interrupted addition to this (published) share. */
  addition?: PendingUpload;
  /** The console's runner for files added to published shares. */
  adder: UploadRunner;
  /** An upload is running: no second one starts. */
  busy: boolean;
  live?: LiveUpload;
  onResume: (files: PickedFile[]) => Promise<void>;
  onChanged: () => void;
}) {
  const t = useTranslations('shares');
  const words = useTranslations('upload');
  const locale = useLocale();
  const describeError = useDescribeError();
  const size = (n: number) => formatBytes(n, locale);
  const [error, setError] = useState('');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const link = absolute(s.url);
  const pending = s.upload_state === 'pending';
  const discard = discardWording(s, mine, t);
  const expired = s.expires_at !== null && Date.parse(s.expires_at) <= Date.now();
  const limitReached = s.max_downloads !== null && s.download_count >= s.max_downloads;
  const downloads = s.max_downloads === null ? t('downloads', { count: s.download_count }) : t('downloadsOf', { count: s.download_count, max: s.max_downloads });

  async function patch(body: BodyOf<'updateShare'>) {
    setError('');
    try {
      await callOperation('updateShare', { params: { id: s.id }, body });
      onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }
  async function remove() {
    close();
    try {
      // An unfinished upload is aborted: its parts are deleted and its reservation freed at once.
      if (pending) await callOperation('abortUpload', { body: { groupId: s.id } });
      else await callOperation('deleteShare', { params: { id: s.id } });
      if (pending) await forgetPendingUpload(s.id);
    } catch (err) {
      setError(describeError(err));
    }
    onChanged();
  }
  async function resume(files: PickedFile[]) {
    close();
    setError('');
    try {
      await onResume(files);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'paused') setError(t('pausedResume'));
      else setError(describeError(err));
    }
  }

  const adding = adder.progress !== null && adder.target === s.id ? adder.progress : null;
  const parts = live
    ? t('uploadingNow', { loaded: size(live.loaded), total: size(live.total) })
    : record
      ? t('partsUploaded', { done: record.partsDone.length, total: record.totalParts })
      : '';
  // The row's facts, one after another ("3 files · 2.0 MB · created …"): each said whole in the reader's language.
  const facts = [
    pending ? t('holds', { size: size(s.total_bytes) }) : t('files', { count: s.file_count, size: size(s.total_bytes) }),
    parts,
    t('created', { date: formatDate(s.created_at, locale) }),
    pending ? '' : s.expires_at ? t('expires', { date: formatDate(s.expires_at, locale) }) : t('expiresNever'),
  ].filter(Boolean);
  const after = [showOwner ? t('by', { name: s.username ?? t('administrator') }) : '', adding ? t('adding', { loaded: size(adding.loaded), total: size(adding.total) }) : ''].filter(Boolean);
  return (
    <li className="py-3" data-testid={`share-${s.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <a href={s.url} target="_blank" rel="noreferrer" className="break-all font-medium text-indigo-700 hover:underline dark:text-indigo-300" data-testid="row-title">
              <bdi>{s.title}</bdi>
            </a>
            {/* i18n-keys: shares.status.* */}
            {pending ? <Badge tone="amber">{t('unfinished')}</Badge> : <Badge tone={s.status === 'online' ? 'green' : 'zinc'}>{t(`status.${s.status}`)}</Badge>}
            {s.has_password ? <Badge tone="indigo">
                <span className="inline-flex items-center gap-1">
                  <LockIcon /> {t('password')}
                </span>
              </Badge> : null}
            {expired ? <Badge tone="red">{t('expired')}</Badge> : null}
            {limitReached ? <Badge tone="red">{t('limitReached')}</Badge> : null}
            {s.received ? (
              <span data-testid="received-from">
                <Badge tone="indigo">{t('receivedFrom', { arriving: pending ? 'yes' : 'no', named: s.received.name ? 'yes' : 'no', name: s.received.name })}</Badge>
              </span>
            ) : null}
          </div>
          {/* The title is the note's first line: the rest of a longer note below it. */}
          {s.note.trim() && s.note.trim() !== s.title ? <p className="mt-1 whitespace-pre-wrap break-words text-xs text-subtle">{s.note}</p> : null}
          {s.received && (s.received.email || s.received.message) ? (
            <p className="mt-1 break-words text-xs text-subtle">
              {s.received.email ? <a href={`mailto:${s.received.email}`} className="underline">{s.received.email}</a> : null}
              {s.received.email && s.received.message ? ' · ' : null}
              {s.received.message ? t('quoted', { message: s.received.message }) : null}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-muted">
            {facts.join(' · ')}
            {pending ? null : (
              <>
                {' · '}
                <span data-testid="downloads">{downloads}</span>
              </>
            )}
            {after.map((fact) => ` · ${fact}`).join('')}
          </p>
          {!pending && owned && addition && adder.groupId !== addition.groupId && adder.paused?.groupId !== addition.groupId ? (
            <InterruptedAddition share={s} record={addition} busy={busy} adder={adder} onChanged={onChanged} />
          ) : null}
          {!pending ? <ShareFiles share={s} canAdd={owned} canRemove={owned || showOwner} adder={adder} busy={busy} onChanged={onChanged} /> : null}
          {!pending && s.download_count > 0 ? <ShareItemDownloads shareId={s.id} /> : null}
          {!pending ? <ShareActivity shareId={s.id} /> : null}
        </div>
        <div className="flex flex-wrap gap-1">
          {pending && mine ? (
            <Button onClick={() => setOpen('resume')} disabled={busy}>
              {t('resume')}
            </Button>
          ) : null}
          {!pending ? (
            <>
              <CopyButton text={link} label={words('copyLink')} copiedLabel={words('copied')} promptLabel={words('copyPrompt')} />
              <ShareLinkButton url={link} title={s.title} label={words('shareLink')} unavailableLabel={words('shareUnavailable')} />
              <Button variant="secondary" onClick={() => setOpen('qr')}>
                {t('qr')}
              </Button>
              <Button variant="secondary" onClick={onAsync(() => patch({ status: s.status === 'online' ? 'offline' : 'online' }))}>
                {s.status === 'online' ? t('takeOffline') : t('putOnline')}
              </Button>
              <Button variant="secondary" onClick={() => setOpen('edit')}>
                {t('edit')}
              </Button>
            </>
          ) : null}
          <Button variant="danger" onClick={() => setOpen('delete')} disabled={pending && busy && mine}>
            {pending ? discard.button : t('delete')}
          </Button>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
      <QrDialog open={open === 'qr'} link={link} onClose={close} />
      <EditShareDialog
        share={s}
        open={open === 'edit'}
        onClose={close}
        onSave={async (body) => {
          await patch(body);
          close();
        }}
      />
      <ConfirmDialog
        open={open === 'delete'}
        title={pending ? discard.title : t('deleteTitle')}
        text={pending ? discard.text : t('deleteText')}
        action={pending ? discard.button : t('deleteShare')}
        cancelLabel={words('cancel')}
        onConfirm={onAsync(remove)}
        onClose={close}
      />
      {pending && mine ? <ResumeDialog share={s} record={record} open={open === 'resume'} onClose={close} onResume={onAsync(resume)} /> : null}
    </li>
  );
}
