'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DropZone } from '@/app/_components/drop-zone';
import { Button, Card, ErrorText, Field } from '@/app/_components/ui';
import { UploadProgressView } from '@/app/files/_components/upload-progress';
import { ApiError, api } from '@/lib/client/api';
import { filesAndHandlesFromDrop, filesFromHandles, filesFromList, isJunk, type PickedFile } from '@/lib/client/collect-files';
import { useDescribeError } from '@/lib/client/error-text';
import { formatBytes } from '@/lib/client/format';
import { matchFiles } from '@/lib/client/match-files';
import { acceptAttribute, fileRefusal, listRefusal, mergePicked, namesInWords, sendRefusal, typesInWords, type Words } from '@/lib/client/request-checks';
import { forgetPendingUpload, listPendingUploads, type PendingUpload } from '@/lib/client/pending-uploads';
import { guestTransport } from '@/lib/client/share-upload';
import { discardUpload, useBrowserUpload } from '@/lib/client/upload-runner';
import { endpointPath } from '@/lib/contract/endpoints';
import type { ResponseOf } from '@/lib/contract/operations';
import { isCancel, isRetryable } from '@/lib/client/upload-engine/retry';

export type { GuestRequestView } from '@/lib/contract/pages';
import type { GuestRequestView } from '@/lib/contract/pages';

type RequestT = ReturnType<typeof useTranslations<'request'>>;

/** The request's limits in plain words: "Up to 10 files, 2.0 GB in all, PDF or video." */
export function limitsInWords(r: Pick<GuestRequestView, 'maxFiles' | 'maxBytes' | 'byQuota' | 'allowedTypes' | 'ownerName'>, t: RequestT, words: Words): string {
  if (r.byQuota && r.maxBytes === 0) return t('noSpace', { owner: r.ownerName });
  return t('limits', {
    count: r.maxFiles,
    size: formatBytes(r.maxBytes, words.locale),
    quota: r.byQuota ? 'yes' : 'no',
    types: r.allowedTypes ? typesInWords(r.allowedTypes, words) : 'none',
  });
}

const fieldsKey = (id: string) => `htmls-request-fields:${id}`;

type Done = { files: number; bytes: number };

/**
 * The guest side of a file request: who asks and for what, the sender's name, e-mail and
 * message, files and folders by drop or picker, then the /files upload engine with an upload
 * token instead of a session. Its plan is kept in IndexedDB like the console's, so a reload or
 * a closed tab resumes: the same files picked (or dropped) again continue where they stopped.
 */
export function RequestUpload({ request: r }: { request: GuestRequestView }) {
  const owner = `request:${r.id}`;
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [handles, setHandles] = useState<FileSystemHandle[]>([]);
  const [pending, setPending] = useState<PendingUpload | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const t = useTranslations('request');
  const describeError = useDescribeError();
  const locale = useLocale();
  const words: Words = useMemo(() => ({ locale, t: t as unknown as Words['t'] }), [locale, t]);
  const upload = useBrowserUpload();
  const progress = upload.progress;
  const folderInput = useRef<HTMLInputElement>(null);
  const fieldsLoaded = useRef(false);

  // Name, e-mail and message outlive a reload (this tab only): a resumed upload needs them again.
  useEffect(() => {
    try {
      const kept = JSON.parse(sessionStorage.getItem(fieldsKey(r.id)) ?? 'null') as { name?: string; email?: string; message?: string } | null;
      if (kept) {
        setName(kept.name ?? '');
        setEmail(kept.email ?? '');
        setMessage(kept.message ?? '');
      }
    } catch {
      // Storage refused (private mode) or unreadable: the fields start blank.
    }
    fieldsLoaded.current = true;
  }, [r.id]);

  useEffect(() => {
    if (!fieldsLoaded.current) return;
    try {
      sessionStorage.setItem(fieldsKey(r.id), JSON.stringify({ name, email, message }));
    } catch {
      // Not kept: nothing else depends on it.
    }
  }, [r.id, name, email, message]);

  useEffect(() => {
    void listPendingUploads().then((all) => setPending(all.find((u) => u.ownerId === owner && u.uploadToken) ?? null));
  }, [owner]);

  const choose = (files: PickedFile[], dropped: FileSystemHandle[] = []) => {
    setError(null);
    // Each pick adds to the list (Dropbox, Pingvin): a wrong file is removed, not everything picked again.
    setPicked((list) => mergePicked(list, files.filter((f) => !isJunk(f.path))));
    setHandles((list) => [...list, ...dropped]);
  };

  const remove = (path: string) => {
    setError(null);
    setPicked((list) => list.filter((f) => f.path !== path));
  };

  async function send(files: PickedFile[], resume: PendingUpload | null) {
    setError(null);
    let token = resume?.uploadToken;
    await upload.run(
      {
        files,
        transport: guestTransport(() => token),
        ownerId: owner,
        engine: {
          guest: true,
          init: async (list, signal) => {
            const res = await api<ResponseOf<'requestUpload'>>(endpointPath('requestUpload', { id: r.id }), {
              method: 'POST',
              signal,
              body: { name: name.trim() || undefined, email: email.trim() || undefined, message: message || undefined, unlock: r.unlock ?? undefined, files: list },
            });
            token = res.uploadToken;
            return res;
          },
        },
        resumeGroupId: resume?.groupId,
        record: resume,
        handles,
        uploadToken: () => token,
      },
      async (outcome) => {
        // Delivered by an attempt whose answer was lost (lib/client/upload-engine/engine.ts): sent.
        const delivered = !outcome.ok && outcome.error instanceof ApiError && outcome.error.code === 'already_completed';
        if (outcome.ok || delivered) {
          if (delivered && outcome.groupId) await forgetPendingUpload(outcome.groupId);
          setPending(null);
          setPicked([]);
          setHandles([]);
          setDone({ files: files.length, bytes: files.reduce((n, f) => n + f.file.size, 0) });
          return;
        }
        const { error: e, record } = outcome;
        if (record && (isRetryable(e) || isCancel(e))) {
          setPending(record);
          setError(isCancel(e) ? t('paused') : t('retry', { reason: describeError(e) }));
        } else {
          // Refused (a limit, a closed request, a spent token): nothing is kept to resume.
          if (record) await forgetPendingUpload(record.groupId);
          setPending(null);
          setError(e instanceof ApiError && e.status === 401 && resume ? t('cannotContinue') : describeError(e));
        }
      },
    );
  }

  /** The interrupted upload's files, when the list holds exactly them again: continue it instead of starting over. */
  const resumeFiles = (() => {
    if (!pending || picked.length !== pending.files.length) return null;
    const m = matchFiles(pending.files, picked);
    if (m.missing.length || m.changed.length) return null;
    return pending.files.map((f) => ({ file: m.matched.get(f.clientPath)!, path: f.clientPath }));
  })();

  function start() {
    if (r.requireName && !name.trim()) return setError(t('nameRequired'));
    if (pending && resumeFiles) return void send(resumeFiles, pending);
    const refusal = sendRefusal(r, picked.map((f) => ({ path: f.path, size: f.file.size, type: f.file.type })), words);
    if (refusal) return setError(refusal);
    void send(picked, null);
  }

  async function continueFromHandles() {
    if (!pending?.handles) return;
    const files = await filesFromHandles(pending.handles);
    if (!files) return setError(t('reread'));
    const m = matchFiles(pending.files, files);
    if (m.missing.length || m.changed.length) return setError(t('changed'));
    await send(pending.files.map((f) => ({ file: m.matched.get(f.clientPath)!, path: f.clientPath })), pending);
  }

  async function discard() {
    if (!pending) return;
    const p = pending;
    setPending(null);
    await discardUpload(p.groupId, p.uploadToken);
  }

  const total = picked.reduce((n, f) => n + f.file.size, 0);
  const tooMany = listRefusal(r, picked.map((f) => ({ size: f.file.size })), words);
  const refused = picked.filter((f) => fileRefusal(r, { path: f.path, size: f.file.size, type: f.file.type }, words)).length;
  const title = r.note ? r.note.split('\n')[0].slice(0, 120) : t('title', { owner: r.ownerName });

  return (
    <main className="mx-auto max-w-2xl px-4 py-8">
      <header className="mb-6">
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">{t('eyebrow')}</p>
        <h1 className="mt-1 break-words text-2xl font-semibold">{title}</h1>
        {r.note.includes('\n') ? <p className="mt-2 whitespace-pre-wrap break-words text-zinc-700 dark:text-zinc-300">{r.note}</p> : null}
        <p className="mt-2 text-sm text-subtle" data-testid="request-owner">
          {t.rich('asked', {
            owner: r.ownerName,
            b: (chunks) => <strong className="font-semibold text-zinc-800 dark:text-zinc-200">{chunks}</strong>,
          })}
        </p>
        <p className="mt-1 text-sm text-subtle" data-testid="request-limits">
          {limitsInWords(r, t, words)}
          {r.expiresAt ? ` ${t('openUntil', { date: new Date(r.expiresAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) })}` : ''}
        </p>
      </header>

      {done ? (
        <Card>
          <div role="status" className="space-y-2" data-testid="request-done">
            <p className="text-lg font-semibold text-green-800 dark:text-green-300">
              {t('done', { owner: r.ownerName, count: done.files, size: formatBytes(done.bytes, locale) })}
            </p>
            <p className="text-sm text-subtle">{t('thanks')}</p>
            <Button variant="secondary" onClick={() => setDone(null)}>
              {t('sendMore')}
            </Button>
          </div>
        </Card>
      ) : (
        <Card>
          <form
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              start();
            }}
          >
            {pending && !progress ? (
              <div role="status" className="space-y-2 rounded-lg bg-amber-50 p-3 text-sm dark:bg-amber-950" data-testid="request-resume">
                <p>
                  {t('interrupted', { count: pending.files.length, size: formatBytes(pending.files.reduce((n, f) => n + f.size, 0), locale) })}
                </p>
                <p className="break-words font-medium" data-testid="request-resume-files">
                  {namesInWords(pending.files.map((f) => f.clientPath), words)}
                </p>
                <div className="flex flex-wrap gap-2">
                  {pending.handles?.length ? (
                    <Button type="button" onClick={() => void continueFromHandles()}>
                      {t('continue')}
                    </Button>
                  ) : null}
                  <Button type="button" variant="secondary" onClick={() => void discard()}>
                    {t('discard')}
                  </Button>
                </div>
              </div>
            ) : null}
            <Field label={r.requireName ? t('name') : t('nameOptional')} value={name} onChange={(e) => setName(e.target.value)} required={r.requireName} autoComplete="name" maxLength={200} disabled={Boolean(progress)} />
            <Field label={t('email')} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" maxLength={254} disabled={Boolean(progress)} />
            <label className="block text-sm">
              <span className="mb-1 block font-medium text-zinc-700 dark:text-zinc-300">{t('message')}</span>
              <textarea
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                rows={3}
                maxLength={5000}
                disabled={Boolean(progress)}
                className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
              />
            </label>
            <DropZone
              testId="request-drop"
              onDrop={async (dt) => {
                if (progress) return;
                const { files, handles: h } = await filesAndHandlesFromDrop(dt);
                choose(files, h);
              }}
            >
              <p className="mb-3">{t('drop')}</p>
              <div className="flex flex-wrap justify-center gap-2">
                <label className="inline-flex cursor-pointer items-center rounded-md bg-white px-3 py-2 text-sm font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:ring-2 focus-within:ring-indigo-500 max-sm:min-h-11 dark:bg-zinc-900 dark:ring-zinc-700 dark:hover:bg-zinc-800">
                  {t('chooseFiles')}
                  <input type="file" multiple accept={acceptAttribute(r.allowedTypes)} className="sr-only" data-testid="request-files" disabled={Boolean(progress)} onChange={(e) => choose(filesFromList(e.target.files))} />
                </label>
                <label className="inline-flex cursor-pointer items-center rounded-md bg-white px-3 py-2 text-sm font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:ring-2 focus-within:ring-indigo-500 max-sm:min-h-11 dark:bg-zinc-900 dark:ring-zinc-700 dark:hover:bg-zinc-800">
                  {t('chooseFolder')}
                  <input
                    ref={(el) => {
                      folderInput.current = el;
                      el?.setAttribute('webkitdirectory', '');
                    }}
                    type="file"
                    className="sr-only"
                    data-testid="request-folder"
                    disabled={Boolean(progress)}
                    onChange={(e) => choose(filesFromList(e.target.files))}
                  />
                </label>
              </div>
            </DropZone>
            {picked.length ? (
              <div className="space-y-2">
                {/* Announced as it changes: a screen reader hears a refused pick without walking the list. */}
                <p role="status" className="text-sm" data-testid="request-picked">
                  {t('picked', { count: picked.length, size: formatBytes(total, locale) })}
                  {refused ? ` · ${t('refusedCount', { count: refused })}` : ''}
                </p>
                <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800" aria-label={t('chosenFiles')} data-testid="request-list">
                  {picked.map((f) => {
                    const why = fileRefusal(r, { path: f.path, size: f.file.size, type: f.file.type }, words);
                    return (
                      <li key={f.path} className="flex items-center gap-2 px-3 py-2" data-testid="request-file">
                        <div className="min-w-0 flex-1">
                          <p className="break-all">
                            <bdi>{f.path}</bdi> <span className="whitespace-nowrap text-subtle">· {formatBytes(f.file.size, locale)}</span>
                          </p>
                          {why ? (
                            <p className="text-red-700 dark:text-red-400" data-testid="request-file-refused">
                              {why}
                            </p>
                          ) : null}
                        </div>
                        {progress ? null : (
                          <button
                            type="button"
                            onClick={() => remove(f.path)}
                            aria-label={t('removeFile', { name: f.path })}
                            className="shrink-0 rounded px-2 py-1 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-500 max-sm:min-h-11 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
                          >
                            {t('remove')}
                          </button>
                        )}
                      </li>
                    );
                  })}
                </ul>
                {tooMany ? (
                  <p aria-live="polite" className="text-sm text-red-700 dark:text-red-400" data-testid="request-list-refused">
                    {tooMany}
                  </p>
                ) : null}
              </div>
            ) : null}
            <ErrorText>{error}</ErrorText>
            {progress ? (
              <>
                <UploadProgressView progress={progress} />
                <Button type="button" variant="secondary" onClick={() => upload.stop()}>
                  {t('pause')}
                </Button>
              </>
            ) : (
              <Button type="submit" disabled={picked.length === 0} data-testid="request-send">
                {resumeFiles ? t('resume') : t('send')}
              </Button>
            )}
          </form>
        </Card>
      )}
    </main>
  );
}
