'use client';

import { useEffect, useState } from 'react';
import { Dialog } from '@/app/_components/client-ui';
import { Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { filesFromHandles, type PickedFile } from '@/lib/client/collect-files';
import { describeError, formatBytes } from '@/lib/client/format';
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
  const [planned, setPlanned] = useState<PlannedFile[] | null>(record?.files ?? null);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!open || planned) return;
    // Started in another browser or by the CLI: the server knows the paths and sizes.
    callOperation('uploadStatus', { body: { groupId: share.id } }).then(
      (s) => setPlanned(s.files.map((f) => ({ clientPath: f.clientPath, size: f.size }))),
      (e) => setError(describeError(e)),
    );
  }, [open, planned, share.id]);

  function tryFiles(picked: PickedFile[]) {
    if (!planned) return;
    const { matched, missing, changed } = matchFiles(planned, picked);
    if (missing.length || changed.length) {
      const list = (xs: string[]) => xs.slice(0, 3).join(', ') + (xs.length > 3 ? ` and ${xs.length - 3} more` : '');
      setError(
        [changed.length ? `Changed since the upload started: ${list(changed)}.` : '', missing.length ? `Not among the files you chose: ${list(missing)}.` : '']
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
    if (!files) return setError('The browser no longer gives access to those files: choose them again.');
    tryFiles(files);
  }

  const done = record ? record.partsDone.length : null;
  return (
    <Dialog open={open} onClose={onClose} title="Resume upload">
      <div className="space-y-3 text-sm" data-testid="resume-dialog">
        <p className="text-subtle">
          {planned ? `${planned.length} ${planned.length === 1 ? 'file' : 'files'}, ${formatBytes(planned.reduce((n, f) => n + f.size, 0))}` : 'Loading…'}
          {done !== null && record ? ` · ${done} of ${record.totalParts} parts already uploaded` : ''}. Choose the same files or folder again; only what is missing is sent.
        </p>
        {planned && planned.length <= 20 ? (
          <ul className="max-h-32 overflow-auto text-xs text-muted">
            {planned.map((f) => (
              <li key={f.clientPath} className="truncate">
                {f.clientPath}
              </li>
            ))}
          </ul>
        ) : null}
        {record?.handles ? (
          <Button onClick={onAsync(fromHandles)} disabled={!planned}>
            Continue with the files dropped before
          </Button>
        ) : null}
        <FilePicker onFiles={(files) => tryFiles(files)} disabled={!planned} prompt="Drop the same files or folder here" testIdPrefix="resume-" />
        <ErrorText>{error}</ErrorText>
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
