'use client';

import { useState } from 'react';
import { ConfirmDialog, CopyButton, ShareLinkButton } from '@/app/_components/client-ui';
import { Badge, Button, ErrorText } from '@/app/_components/ui';
import { LockIcon } from '@/app/_components/icons';
import { ApiError, callOperation } from '@/lib/client/api';
import type { PickedFile } from '@/lib/client/collect-files';
import { describeError, formatBytes, formatDate } from '@/lib/client/format';
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
  const [error, setError] = useState('');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const link = absolute(s.url);
  const pending = s.upload_state === 'pending';
  const discard = discardWording(s, mine);
  const expired = s.expires_at !== null && Date.parse(s.expires_at) <= Date.now();
  const limitReached = s.max_downloads !== null && s.download_count >= s.max_downloads;
  const downloads = `${s.download_count} ${s.download_count === 1 ? 'download' : 'downloads'}${s.max_downloads !== null ? ` of ${s.max_downloads} allowed` : ''}`;

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
      if (err instanceof ApiError && err.code === 'paused') setError('Paused: Resume continues from here.');
      else setError(describeError(err));
    }
  }

  const adding = adder.progress !== null && adder.target === s.id ? adder.progress : null;
  const parts = live
    ? ` · uploading now: ${formatBytes(live.loaded)} of ${formatBytes(live.total)}`
    : record
      ? ` · ${record.partsDone.length} of ${record.totalParts} parts uploaded`
      : '';
  return (
    <li className="py-3" data-testid={`share-${s.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <a href={s.url} target="_blank" rel="noreferrer" className="break-all font-medium text-indigo-700 hover:underline dark:text-indigo-300" data-testid="row-title">
              {s.title}
            </a>
            {pending ? <Badge tone="amber">upload unfinished</Badge> : <Badge tone={s.status === 'online' ? 'green' : 'zinc'}>{s.status}</Badge>}
            {s.has_password ? <Badge tone="indigo">
                <span className="inline-flex items-center gap-1">
                  <LockIcon /> password
                </span>
              </Badge> : null}
            {expired ? <Badge tone="red">expired</Badge> : null}
            {limitReached ? <Badge tone="red">download limit reached</Badge> : null}
            {s.received ? (
              <span data-testid="received-from">
                <Badge tone="indigo">{pending ? 'arriving from' : 'received from'} {s.received.name || 'a guest'}</Badge>
              </span>
            ) : null}
          </div>
          {/* The title is the note's first line: the rest of a longer note below it. */}
          {s.note.trim() && s.note.trim() !== s.title ? <p className="mt-1 whitespace-pre-wrap break-words text-xs text-subtle">{s.note}</p> : null}
          {s.received && (s.received.email || s.received.message) ? (
            <p className="mt-1 break-words text-xs text-subtle">
              {s.received.email ? <a href={`mailto:${s.received.email}`} className="underline">{s.received.email}</a> : null}
              {s.received.email && s.received.message ? ' · ' : null}
              {s.received.message ? `“${s.received.message}”` : null}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-muted">
            {pending ? `holds ${formatBytes(s.total_bytes)} of quota${parts}` : `${s.file_count} ${s.file_count === 1 ? 'file' : 'files'} · ${formatBytes(s.total_bytes)}`} · created {formatDate(s.created_at)}
            {pending ? '' : ` · expires ${formatDate(s.expires_at)} · `}
            {pending ? null : <span data-testid="downloads">{downloads}</span>}
            {showOwner ? ` · by ${s.username ?? 'administrator'}` : ''}
            {adding ? ` · adding files: ${formatBytes(adding.loaded)} of ${formatBytes(adding.total)}` : ''}
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
              Resume
            </Button>
          ) : null}
          {!pending ? (
            <>
              <CopyButton text={link} />
              <ShareLinkButton url={link} title={s.title} />
              <Button variant="secondary" onClick={() => setOpen('qr')}>
                QR
              </Button>
              <Button variant="secondary" onClick={onAsync(() => patch({ status: s.status === 'online' ? 'offline' : 'online' }))}>
                {s.status === 'online' ? 'Take offline' : 'Put online'}
              </Button>
              <Button variant="secondary" onClick={() => setOpen('edit')}>
                Edit
              </Button>
            </>
          ) : null}
          <Button variant="danger" onClick={() => setOpen('delete')} disabled={pending && busy && mine}>
            {pending ? discard.button : 'Delete'}
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
        title={pending ? discard.title : 'Delete this share?'}
        text={pending ? discard.text : 'The link stops working and its files are deleted. This cannot be undone.'}
        action={pending ? discard.button : 'Delete share'}
        onConfirm={onAsync(remove)}
        onClose={close}
      />
      {pending && mine ? <ResumeDialog share={s} record={record} open={open === 'resume'} onClose={close} onResume={onAsync(resume)} /> : null}
    </li>
  );
}
