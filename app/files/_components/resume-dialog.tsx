'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Dialog } from '@/app/_components/client-ui';
import { Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { filesFromHandles, type PickedFile } from '@/lib/client/collect-files';
import { useDescribeError } from '@/lib/client/error-text';
import { formatBytes } from '@/lib/client/format';
import { matchFiles, type PlannedFile } from '@/lib/client/match-files';
import type { PendingUpload } from '@/lib/client/pending-uploads';
import type { ShareSummaryDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { FilePicker } from './file-picker';

/**
 * Resuming an interrupted upload: the same files again — from the handles this browser kept
 * of a drop, or picked or dropped again — matched by path, size and modification time. Only
 * the parts the server does not hold are sent.
 */
export function ResumeDialog({
  share,
  record,
  open,
  onClose,
  onResume,
}: {
  share: ShareSummaryDto;
  record?: PendingUpload;
  open: boolean;
  onClose: () => void;
  onResume: (files: PickedFile[]) => void;
}) {
  const t = useTranslations('upload');
  const locale = useLocale();
  const describeError = useDescribeError();
  const [planned, setPlanned] = useState<PlannedFile[] | null>(record?.files ?? null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!open || planned) return;
    // Started in another browser or by the CLI: the server knows the paths and sizes.
    callOperation('uploadStatus', { body: { groupId: share.id } }).then(
      (s) => setPlanned(s.files.map((f) => ({ clientPath: f.clientPath, size: f.size }))),
      (e) => setError(describeError(e)),
    );
  }, [open, planned, share.id, describeError]);

  function tryFiles(picked: PickedFile[]) {
    if (!planned) return;
    const { matched, missing, changed } = matchFiles(planned, picked);
    if (missing.length || changed.length) {
      // Three names, then how many more: one list in the reader's language ("a, b, c und 2 weitere").
      const list = (xs: string[]) => new Intl.ListFormat(locale, { type: 'conjunction' }).format([...xs.slice(0, 3), ...(xs.length > 3 ? [t('more', { count: xs.length - 3 })] : [])]);
      setError(
        [changed.length ? t('changed', { list: list(changed) }) : '', missing.length ? t('missing', { list: list(missing) }) : '']
          .filter(Boolean)
          .join(' '),
      );
      return;
    }
    setError('');
    onResume(planned.map((p) => ({ path: p.clientPath, file: matched.get(p.clientPath)! })));
  }

  async function fromHandles() {
    const files = record?.handles ? await filesFromHandles(record.handles) : null;
    if (!files) return setError(t('handlesGone'));
    tryFiles(files);
  }

  const done = record ? record.partsDone.length : null;
  return (
    <Dialog open={open} onClose={onClose} title={t('resumeTitle')}>
      <div className="space-y-3 text-sm" data-testid="resume-dialog">
        <p className="text-subtle">
          {t('resumeWhat', {
            loading: planned ? 'no' : 'yes',
            count: planned?.length ?? 0,
            size: formatBytes((planned ?? []).reduce((n, f) => n + f.size, 0), locale),
            known: done !== null && record ? 'yes' : 'no',
            done: done ?? 0,
            total: record?.totalParts ?? 0,
          })}
        </p>
        {planned && planned.length <= 20 ? (
          <ul className="max-h-32 overflow-auto text-xs text-muted">
            {planned.map((f) => (
              <li key={f.clientPath} className="truncate">
                <bdi>{f.clientPath}</bdi>
              </li>
            ))}
          </ul>
        ) : null}
        {record?.handles ? (
          <Button onClick={onAsync(fromHandles)} disabled={!planned}>
            {t('continueDropped')}
          </Button>
        ) : null}
        <FilePicker onFiles={(files) => tryFiles(files)} disabled={!planned} prompt={t('dropSame')} testIdPrefix="resume-" />
        <ErrorText>{error}</ErrorText>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            {t('close')}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
