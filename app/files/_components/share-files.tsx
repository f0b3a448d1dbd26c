'use client';

import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/app/_components/client-ui';
import { Button, ErrorText } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { isJunk, type PickedFile } from '@/lib/client/collect-files';
import { describeError, formatBytes } from '@/lib/client/format';
import { forgetPendingUpload, type PendingUpload } from '@/lib/client/pending-uploads';
import { endpointPath } from '@/lib/contract/endpoints';
import type { ShareDto, ShareItemDto, ShareSummaryDto } from '@/lib/contract/dtos';
import { FilePicker } from './file-picker';
import { ResumeDialog } from './resume-dialog';
import { UploadProgressView } from './upload-progress';
import { PauseCancelButtons, PausedText, StopConfirmDialog, useStoppedMessage, type StopChoice } from './upload-stop';
import type { UploadRunner } from './use-upload-runner';

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** What stopped an addition, in words; a pause keeps its parts and says nothing. */

/**
 * A published share's files, opened from its row: each with its size and (for who may change
 * the share) a Remove with a confirm step, and "Add files" — picked or dropped like a new
 * share, sent on the same resumable protocol as an addition that guests see all at once when
 * it completes (POST /api/shares/upload/init with share_id). The items are fetched when opened
 * and again whenever the share's counts change.
 */
/** What stopped an addition, in words (the share itself stays as it was). */
function useStopped() {
  const stoppedMessage = useStoppedMessage();
  return (err: unknown) => stoppedMessage(err, 'Adding cancelled. Nothing was kept; guests still see the share as it was.');
}

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
  }, [open, s.id, s.file_count, s.total_bytes]);

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
      setNotice(`Added ${files(whole.file_count - before)}. Guests now see all ${files(whole.file_count)}.`);
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
    if (picked.length === 0) return setError('Choose or drop some files to add first.');
    const have = new Set((items ?? []).map((it) => it.relative_path.toLowerCase()));
    const taken = picked.filter((p) => have.has(p.path.toLowerCase())).map((p) => p.path);
    if (taken.length) {
      return setError(`The share already has ${taken.slice(0, 3).map((t) => `“${t}”`).join(', ')}${taken.length > 3 ? ` and ${taken.length - 3} more` : ''}: remove ${taken.length === 1 ? 'it' : 'them'} first, or rename what you add.`);
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
      setNotice(`Removed “${path}”. Guests no longer see it.`);
    } catch (err) {
      setError(describeError(err));
    }
    onChanged();
  }

  return (
    <details className="mt-1 text-xs text-muted" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="items-panel">
      <summary className="cursor-pointer max-sm:py-2">Files ({s.file_count})</summary>
      <div className="mt-2 space-y-2">
        {canAdd ? (
          <div className="space-y-2">
            {!adding && !running && !paused ? (
              <Button variant="secondary" onClick={() => (setAdding(true), setNotice(''))} disabled={busy}>
                Add files
              </Button>
            ) : null}
            {adding && !running && !paused ? (
              <div className="space-y-2 rounded-lg border border-zinc-200 p-3 text-sm text-zinc-800 dark:border-zinc-800 dark:text-zinc-200">
                <FilePicker onFiles={pick} disabled={busy} prompt="Drop files or folders to add to this share" testIdPrefix="add-" />
                {picked.length > 0 ? (
                  <>
                    <p>
                      {files(picked.length)} · {formatBytes(total)}
                    </p>
                    <ul className="max-h-32 overflow-auto text-xs text-subtle">
                      {picked.slice(0, 200).map((p) => (
                        <li key={p.path} className="flex justify-between gap-2">
                          <span className="truncate">{p.path}</span>
                          <span>{formatBytes(p.file.size)}</span>
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                <p className="text-xs text-muted">Guests keep seeing the share as it is until every added file has arrived, then all of them at once.</p>
                <div className="flex flex-wrap gap-2">
                  <Button onClick={start} disabled={busy || picked.length === 0}>
                    {picked.length ? `Add ${files(picked.length)}` : 'Add'}
                  </Button>
                  <Button variant="secondary" onClick={() => (setAdding(false), setPicked([]), setHandles(null), setError(''))}>
                    Close
                  </Button>
                </div>
              </div>
            ) : null}
            {running && adder.progress ? (
              <div className="rounded-lg border border-zinc-200 p-3 text-sm text-zinc-800 dark:border-zinc-800 dark:text-zinc-200">
                <p className="font-medium">{adder.resuming ? 'Resuming the interrupted addition…' : 'Adding files…'}</p>
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
                    Continue
                  </Button>
                  <Button variant="secondary" onClick={() => setConfirmStop('discard')}>
                    Discard
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
        {items === null && !error ? <p>Loading…</p> : null}
        {items ? (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={`Files of this share`}>
            {items.map((it) => (
              <li key={it.relative_path} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-1" data-testid="item-row">
                <a href={`${s.url}/${it.relative_path.split('/').map(encodeURIComponent).join('/')}`} target="_blank" rel="noreferrer" className="min-w-0 break-all text-zinc-800 hover:underline dark:text-zinc-200">
                  {it.relative_path}
                </a>
                <span className="ml-auto flex items-center gap-2">
                  <span>{formatBytes(it.size)}</span>
                  {canRemove && items.length > 1 ? (
                    <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setRemoving(it.relative_path)} aria-label={`Remove ${it.relative_path}`} disabled={running}>
                      Remove
                    </Button>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {canRemove && items?.length === 1 ? <p>This is the share’s only file: to take it away, delete the share.</p> : null}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove “${removing ?? ''}”?`}
        text="Guests stop seeing this file at once, its bytes are deleted and your quota frees up. The rest of the share stays. This cannot be undone."
        action="Remove file"
        onConfirm={() => void remove(removing!)}
        onClose={() => setRemoving(null)}
      />
      <StopConfirmDialog
        choice={confirmStop}
        titles={{ cancel: 'Cancel adding these files?', discard: 'Discard this addition?' }}
        cancelAction="Cancel adding"
        text="The parts uploaded so far are deleted and the quota they hold is freed. The share stays as it was."
        onCancel={adder.cancel}
        onDiscard={() => void adder.discardPaused().then(() => (setError(''), setNotice('Addition discarded. The share stays as it was.'), onChanged()))}
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
        Adding {files(record.files.length)} to this share was interrupted · {record.partsDone.length} of {record.totalParts} parts uploaded. Guests do not see them yet.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button onClick={() => setOpen('resume')} disabled={busy}>
          Resume adding
        </Button>
        <Button variant="secondary" onClick={() => setOpen('discard')} disabled={busy}>
          Discard
        </Button>
      </div>
      <ErrorText>{error}</ErrorText>
      <ResumeDialog share={share} record={record} open={open === 'resume'} onClose={() => setOpen(null)} onResume={(picked) => void resume(picked)} />
      <ConfirmDialog
        open={open === 'discard'}
        title="Discard this addition?"
        text="The parts uploaded so far are deleted and the quota they hold is freed. The share stays as it was."
        action="Discard"
        onConfirm={() => void discard()}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
