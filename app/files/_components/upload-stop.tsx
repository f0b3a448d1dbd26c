'use client';

import { ConfirmDialog } from '@/app/_components/client-ui';
import { Button } from '@/app/_components/ui';
import { describeError, formatBytes } from '@/lib/client/format';
import { isCancel, isRetryable } from '@/lib/upload-engine/retry';
import { ApiError } from '@/lib/client/api';

/**
 * What /files says and offers while an upload runs, pauses or stops — a new share's and an
 * addition to a published one alike: Pause and Cancel while it runs, the paused sentence, and
 * the confirm step before a Cancel or a Discard deletes the parts sent so far.
 */
export type StopChoice = 'cancel' | 'discard' | null;

/** What stopped an upload, in words: '' for a pause (its parts are kept and it says so itself). */
export function stoppedMessage(err: unknown, cancelled: string): string {
  if (err instanceof ApiError && err.code === 'paused') return '';
  if (isCancel(err)) return cancelled;
  return `${describeError(err)}${isRetryable(err) ? ' The parts sent so far are kept: Continue sends the rest.' : ''}`;
}

export function PausedText({ paused }: { paused: { failed?: boolean; loaded: number; total: number } }) {
  return (
    <>
      {paused.failed ? 'Stopped' : 'Paused'} at {formatBytes(paused.loaded)} of {formatBytes(paused.total)}. The parts sent so far are kept; Continue sends the rest.
    </>
  );
}

export function PauseCancelButtons({ onPause, onCancel }: { onPause: () => void; onCancel: () => void }) {
  return (
    <>
      <Button variant="secondary" onClick={onPause}>
        Pause
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
    </>
  );
}

/** The confirm step of a Cancel (while running) or a Discard (while paused). */
export function StopConfirmDialog({
  choice,
  titles,
  cancelAction,
  text,
  onCancel,
  onDiscard,
  onClose,
}: {
  choice: StopChoice;
  titles: { cancel: string; discard: string };
  cancelAction: string;
  text: string;
  onCancel: () => void;
  onDiscard: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={choice !== null}
      title={choice === 'cancel' ? titles.cancel : titles.discard}
      text={text}
      action={choice === 'cancel' ? cancelAction : 'Discard'}
      cancelLabel={choice === 'cancel' ? 'Keep uploading' : undefined}
      onConfirm={() => {
        onClose();
        if (choice === 'cancel') onCancel();
        else onDiscard();
      }}
      onClose={onClose}
    />
  );
}
