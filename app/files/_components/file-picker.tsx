'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import { DropZone } from '@/app/_components/drop-zone';
import { filesAndHandlesFromDrop, filesFromList, type PickedFile } from '@/lib/client/collect-files';

const PICK =
  'inline-flex cursor-pointer items-center rounded-md bg-white px-3 py-2 max-sm:min-h-11 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700';

/**
 * A drop zone with "Choose files" and "Choose folder". A drop also hands over file handles
 * where the browser has them (kept so an interrupted upload needs no re-pick); a pick does not.
 */
export function FilePicker({
  onFiles,
  disabled = false,
  prompt,
  testIdPrefix = '',
  media = false,
}: {
  onFiles: (files: PickedFile[], handles: FileSystemHandle[] | null) => void;
  disabled?: boolean;
  prompt?: string;
  testIdPrefix?: string;
  /** Offer the phone's photo library (a camera-roll picker on mobile). */
  media?: boolean;
}) {
  const t = useTranslations('upload');
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);
  const picked = (list: FileList | null, input: HTMLInputElement) => {
    onFiles(filesFromList(list), null);
    input.value = '';
  };
  return (
    <DropZone
      testId={`${testIdPrefix}dropzone`}
      onDrop={async (data) => {
        if (disabled) return;
        const { files, handles } = await filesAndHandlesFromDrop(data);
        onFiles(files, handles.length ? handles : null);
      }}
    >
      <p className="text-subtle">{prompt ?? t('drop')}</p>
      <div className="mt-3 flex flex-wrap justify-center gap-2">
        <label className={PICK}>
          {t('chooseFiles')}
          <input type="file" multiple className="sr-only" disabled={disabled} onChange={(e) => picked(e.target.files, e.target)} data-testid={`${testIdPrefix}file-input`} />
        </label>
        <label className={PICK}>
          {t('chooseFolder')}
          <input ref={folderInput} type="file" multiple className="sr-only" disabled={disabled} onChange={(e) => picked(e.target.files, e.target)} data-testid={`${testIdPrefix}folder-input`} />
        </label>
        {media ? (
          <label className={PICK}>
            {t('media')}
            <input type="file" accept="image/*,video/*" multiple className="sr-only" disabled={disabled} onChange={(e) => picked(e.target.files, e.target)} data-testid={`${testIdPrefix}media-input`} />
          </label>
        ) : null}
      </div>
    </DropZone>
  );
}
