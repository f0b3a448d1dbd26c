'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { ConfirmDialog } from '@/app/_components/client-ui';
import { Button } from '@/app/_components/ui';
import { useDescribeError } from '@/lib/client/error-text';
import { formatBytes } from '@/lib/client/format';
import { isCancel, isRetryable } from '@/lib/client/upload-engine/retry';
import { ApiError } from '@/lib/client/api';

/**
 * What /files says and offers while an upload runs, pauses or stops — a new share's and an
 * addition to a published one alike: Pause and Cancel while it runs, the paused sentence, and
 * the confirm step before a Cancel or a Discard deletes the parts sent so far.
 */
export type StopChoice = 'cancel' | 'discard' | null;

/** What stopped an upload, in words: '' for a pause (its parts are kept and it says so itself). */
export function useStoppedMessage() {
  const t = useTranslations('upload');
  const describeError = useDescribeError();
  return useCallback(
    (err: unknown, cancelled: string): string => {
      if (err instanceof ApiError && err.code === 'paused') return '';
      if (isCancel(err)) return cancelled;
      return isRetryable(err) ? t('stoppedKept', { reason: describeError(err) }) : describeError(err);
    },
    [t, describeError],
  );
}

export function PausedText({ paused }: { paused: { failed?: boolean; loaded: number; total: number } }) {
  const t = useTranslations('upload');
  const locale = useLocale();
  return <>{t('pausedAt', { failed: paused.failed ? 'yes' : 'no', loaded: formatBytes(paused.loaded, locale), total: formatBytes(paused.total, locale) })}</>;
}

export function PauseCancelButtons({ onPause, onCancel }: { onPause: () => void; onCancel: () => void }) {
  const t = useTranslations('upload');
  return (
    <>
      <Button variant="secondary" onClick={onPause}>
        {t('pause')}
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        {t('cancel')}
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
  const t = useTranslations('upload');
  return (
    <ConfirmDialog
      open={choice !== null}
      title={choice === 'cancel' ? titles.cancel : titles.discard}
      text={text}
      action={choice === 'cancel' ? cancelAction : t('discard')}
      cancelLabel={choice === 'cancel' ? t('keepUploading') : t('cancel')}
      onConfirm={() => {
        onClose();
        if (choice === 'cancel') onCancel();
        else onDiscard();
      }}
      onClose={onClose}
    />
  );
}
