'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { CopyButton, Dialog, QrCode } from '@/app/_components/client-ui';
import { Badge, Button, Card, ErrorText, Field, ProgressBar } from '@/app/_components/ui';
import { api } from '@/lib/client/api';
import { filesFromDrop, filesFromList, isJunk, type PickedFile } from '@/lib/client/collect-files';
import { describeError, formatBytes, formatDate, formatEta, formatSpeed } from '@/lib/client/format';
import { uploadShare, type UploadProgress } from '@/lib/client/share-upload';
import { useSharedItems } from '@/lib/client/use-shared-items';
import type { ShareDto } from '@/lib/shares/share-dto';
import type { FilesSession } from './types';

const EXPIRY_PRESETS = [
  { label: '1 day', days: 1 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: 'Never', days: 0 },
];

const absolute = (path: string) => (typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString());

export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

export function SharesPanel({ session, onUsageChanged }: { session: FilesSession; onUsageChanged: () => void }) {
  const [shares, setShares] = useState<ShareDto[] | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(async () => {
    try {
      setShares((await api<{ shares: ShareDto[] }>('/api/shares')).shares);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const changed = () => {
    void load();
    onUsageChanged();
  };
  return (
    <>
      <UploadPanel session={session} onDone={changed} />
      <Card>
        <h2 className="text-base font-semibold">{session.role === 'admin' && !session.user ? 'All shares' : 'Your shares'}</h2>
        <ErrorText>{error}</ErrorText>
        {shares === null ? (
          <p className="mt-3 text-sm text-zinc-500">Loading…</p>
        ) : shares.length === 0 ? (
          <div className="mt-4 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500 dark:border-zinc-700">
            No shares yet. Drop files above to make your first link.
          </div>
        ) : (
          <ul className="mt-3 divide-y divide-zinc-200 dark:divide-zinc-800">
            {shares.map((s) => (
              <ShareRow key={s.id} share={s} showOwner={session.role === 'admin'} onChanged={changed} />
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

function UploadPanel({ session, onDone }: { session: FilesSession; onDone: () => void }) {
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [note, setNote] = useState('');
  const [days, setDays] = useState(7);
  const [customDate, setCustomDate] = useState('');
  const [password, setPassword] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState('');
  const [result, setResult] = useState<ShareDto | null>(null);
  const [dragging, setDragging] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);
  useSharedItems(({ files, text, missing }) => {
    if (missing) return setError('The shared files did not arrive. Choose them here instead.');
    add(files);
    if (text) setNote((n) => n || text.slice(0, 2000));
  });

  const total = picked.reduce((n, p) => n + p.file.size, 0);
  const free = session.user && session.role !== 'admin' ? session.user.quota_bytes - session.user.used_bytes : Infinity;
  const uploading = progress !== null;

  function add(files: PickedFile[]) {
    setResult(null);
    setError('');
    const merged = new Map(picked.map((p) => [p.path, p]));
    for (const f of files) if (!isJunk(f.path)) merged.set(f.path, f);
    setPicked([...merged.values()]);
  }

  async function start() {
    setError('');
    setResult(null);
    if (picked.length === 0) return setError('Choose or drop some files first.');
    if (total > free) return setError(`These files need ${formatBytes(total)} but only ${formatBytes(Math.max(0, free))} of your quota is free.`);
    const expiresAt = customDate
      ? new Date(`${customDate}T23:59:59`).toISOString()
      : days > 0
        ? new Date(Date.now() + days * 86400_000).toISOString()
        : null;
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ stage: 'preparing', loaded: 0, total, speed: 0, eta: Infinity, files: [] });
    try {
      const share = await uploadShare(
        picked.map((p) => ({ file: p.file, path: p.path })),
        { note, expiresAt, password, signal: controller.signal, onProgress: (p) => setProgress({ ...p, files: [...p.files] }) },
      );
      setResult(share);
      setPicked([]);
      setNote('');
      setPassword('');
      onDone();
    } catch (err) {
      setError((err as Error).name === 'AbortError' ? 'Upload cancelled. Nothing was kept.' : describeError(err));
    } finally {
      setProgress(null);
      abortRef.current = null;
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">New share</h2>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={async (e) => {
          e.preventDefault();
          setDragging(false);
          if (!uploading) add(await filesFromDrop(e.dataTransfer));
        }}
        data-testid="dropzone"
        className={`mt-3 rounded-lg border-2 border-dashed p-6 text-center text-sm ${dragging ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-zinc-300 dark:border-zinc-700'}`}
      >
        <p className="text-zinc-600 dark:text-zinc-400">Drop files or folders here</p>
        <div className="mt-3 flex flex-wrap justify-center gap-2">
          <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
            Choose files
            <input type="file" multiple className="sr-only" disabled={uploading} onChange={(e) => add(filesFromList(e.target.files))} data-testid="file-input" />
          </label>
          <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
            Choose folder
            <input ref={folderInput} type="file" multiple className="sr-only" disabled={uploading} onChange={(e) => add(filesFromList(e.target.files))} data-testid="folder-input" />
          </label>
          <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
            Photos &amp; videos
            <input type="file" accept="image/*,video/*" multiple className="sr-only" disabled={uploading} onChange={(e) => add(filesFromList(e.target.files))} data-testid="media-input" />
          </label>
        </div>
      </div>
      {picked.length > 0 ? (
        <div className="mt-3 text-sm">
          <div className="flex items-center justify-between">
            <span>
              {picked.length} {picked.length === 1 ? 'file' : 'files'} · {formatBytes(total)}
            </span>
            {!uploading ? (
              <Button variant="ghost" onClick={() => setPicked([])}>
                Clear
              </Button>
            ) : null}
          </div>
          <ul className="mt-1 max-h-40 overflow-auto text-xs text-zinc-600 dark:text-zinc-400">
            {picked.slice(0, 200).map((p) => (
              <li key={p.path} className="flex justify-between gap-2">
                <span className="truncate">{p.path}</span>
                <span>{formatBytes(p.file.size)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field label="Note (optional)" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} disabled={uploading} />
        <div>
          <span className="mb-1 block text-sm font-medium text-zinc-700 dark:text-zinc-300">Expires</span>
          <div className="flex flex-wrap gap-1" role="group" aria-label="Expiry">
            {EXPIRY_PRESETS.map((p) => (
              <button
                key={p.label}
                type="button"
                aria-pressed={!customDate && days === p.days}
                onClick={() => {
                  setDays(p.days);
                  setCustomDate('');
                }}
                className={`rounded-md px-2.5 py-1.5 text-sm ring-1 ${!customDate && days === p.days ? 'bg-indigo-600 text-white ring-indigo-600' : 'ring-zinc-300 dark:ring-zinc-700'}`}
              >
                {p.label}
              </button>
            ))}
            <label className="sr-only" htmlFor="expiry-date">
              Expiry date
            </label>
            <input
              id="expiry-date"
              type="date"
              value={customDate}
              min={new Date().toISOString().slice(0, 10)}
              onChange={(e) => setCustomDate(e.target.value)}
              className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            />
          </div>
        </div>
        <div className="flex items-end gap-2 sm:col-span-2">
          <div className="flex-1">
            <Field label="Password (optional)" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="off" disabled={uploading} />
          </div>
          <Button type="button" variant="secondary" onClick={() => setPassword(generatePassword())} disabled={uploading}>
            Generate
          </Button>
        </div>
      </div>
      {progress ? <UploadProgressView progress={progress} /> : null}
      <div className="mt-4 space-y-3">
        <ErrorText>{error}</ErrorText>
        <div className="flex gap-2">
          <Button onClick={start} disabled={uploading || picked.length === 0}>
            Upload and create link
          </Button>
          {uploading ? (
            <Button variant="secondary" onClick={() => abortRef.current?.abort()}>
              Cancel
            </Button>
          ) : null}
        </div>
        {result ? <ShareCreated share={result} /> : null}
      </div>
    </Card>
  );
}

function UploadProgressView({ progress: p }: { progress: UploadProgress }) {
  return (
    <div className="mt-4 space-y-2" data-testid="upload-progress">
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <span>
          {p.stage === 'preparing' ? 'Preparing…' : p.stage === 'finishing' ? 'Finishing…' : `${formatBytes(p.loaded)} of ${formatBytes(p.total)}`}
        </span>
        <span className="text-zinc-500">
          {p.stage === 'uploading' ? `${formatSpeed(p.speed)} · ${formatEta(p.eta)} left` : ''}
        </span>
      </div>
      <ProgressBar value={p.loaded} max={p.total} label="Upload progress" />
      {p.files.length > 1 ? (
        <ul className="max-h-40 space-y-1 overflow-auto text-xs">
          {p.files.map((f) => (
            <li key={f.path} className="grid grid-cols-[1fr_8rem] items-center gap-2">
              <span className="truncate">{f.done ? '✓ ' : ''}{f.path}</span>
              <ProgressBar value={f.done ? f.total : f.loaded} max={f.total || 1} label={`Progress of ${f.path}`} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function ShareCreated({ share }: { share: ShareDto }) {
  const link = absolute(share.url);
  return (
    <div role="status" className="flex flex-wrap items-center gap-4 rounded-lg bg-green-50 p-4 dark:bg-green-950">
      <QrCode text={link} size={112} />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-sm font-medium text-green-800 dark:text-green-300">Your link is ready</p>
        <a href={share.url} target="_blank" rel="noreferrer" className="block break-all text-sm text-indigo-700 underline dark:text-indigo-300" data-testid="share-link">
          {link}
        </a>
        <CopyButton text={link} />
      </div>
    </div>
  );
}

function ShareRow({ share: s, showOwner, onChanged }: { share: ShareDto; showOwner: boolean; onChanged: () => void }) {
  const [error, setError] = useState('');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [qr, setQr] = useState(false);
  const link = absolute(s.url);
  const pending = s.upload_state === 'pending';
  const expired = s.expires_at !== null && Date.parse(s.expires_at) <= Date.now();

  async function patch(body: Record<string, unknown>) {
    setError('');
    try {
      await api(`/api/shares/${s.id}`, { method: 'PATCH', body });
      onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }
  async function remove() {
    try {
      if (pending) await api('/api/shares/upload/abort', { body: { groupId: s.id } }).catch(() => api(`/api/shares/${s.id}`, { method: 'DELETE' }));
      else await api(`/api/shares/${s.id}`, { method: 'DELETE' });
      setDeleting(false);
      onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <li className="py-3" data-testid={`share-${s.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <a href={s.url} target="_blank" rel="noreferrer" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
              {s.note || `${s.file_count} ${s.file_count === 1 ? 'file' : 'files'}`}
            </a>
            {pending ? <Badge tone="amber">upload unfinished</Badge> : <Badge tone={s.status === 'online' ? 'green' : 'zinc'}>{s.status}</Badge>}
            {s.has_password ? <Badge tone="indigo">🔒 password</Badge> : null}
            {expired ? <Badge tone="red">expired</Badge> : null}
          </div>
          <p className="mt-1 text-xs text-zinc-500">
            {s.file_count} {s.file_count === 1 ? 'file' : 'files'} · {formatBytes(s.total_bytes)} · created {formatDate(s.created_at)} · expires {formatDate(s.expires_at)}
            {showOwner ? ` · by ${s.username ?? 'administrator'}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          {!pending ? (
            <>
              <CopyButton text={link} />
              <Button variant="secondary" onClick={() => setQr(true)}>
                QR
              </Button>
              <Button variant="secondary" onClick={() => patch({ status: s.status === 'online' ? 'offline' : 'online' })} aria-label={s.status === 'online' ? 'Take offline' : 'Put online'}>
                {s.status === 'online' ? 'Take offline' : 'Put online'}
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
            </>
          ) : null}
          <Button variant="danger" onClick={() => setDeleting(true)}>
            {pending ? 'Discard' : 'Delete'}
          </Button>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
      <Dialog open={qr} onClose={() => setQr(false)} title="Scan to open">
        <div className="flex flex-col items-center gap-3">
          <QrCode text={link} size={220} />
          <p className="break-all text-xs text-zinc-500">{link}</p>
          <Button variant="secondary" onClick={() => setQr(false)}>
            Close
          </Button>
        </div>
      </Dialog>
      <Dialog open={editing} onClose={() => setEditing(false)} title="Edit share">
        {editing ? (
          <EditShare
            share={s}
            onCancel={() => setEditing(false)}
            onSave={async (body) => {
              await patch(body);
              setEditing(false);
            }}
          />
        ) : null}
      </Dialog>
      <Dialog open={deleting} onClose={() => setDeleting(false)} title={pending ? 'Discard this upload?' : 'Delete this share?'}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">The link stops working and its files are deleted. This cannot be undone.</p>
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={remove}>
            {pending ? 'Discard' : 'Delete share'}
          </Button>
        </div>
      </Dialog>
    </li>
  );
}

function EditShare({ share, onSave, onCancel }: { share: ShareDto; onSave: (body: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const [note, setNote] = useState(share.note);
  const [date, setDate] = useState(share.expires_at ? share.expires_at.slice(0, 10) : '');
  const [password, setPassword] = useState('');
  const [clearPassword, setClearPassword] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body: Record<string, unknown> = { note, expires_at: date ? new Date(`${date}T23:59:59`).toISOString() : null };
    if (clearPassword) body.password = null;
    else if (password) body.password = password;
    await onSave(body);
  }
  return (
    <form onSubmit={submit} className="space-y-3">
      <Field label="Note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <Field label="Expires on (empty: never)" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <Field
            label={share.has_password ? 'New password (leave empty to keep)' : 'Password (optional)'}
            value={password}
            autoComplete="off"
            onChange={(e) => setPassword(e.target.value)}
            disabled={clearPassword}
          />
        </div>
        <Button type="button" variant="secondary" onClick={() => setPassword(generatePassword())} disabled={clearPassword}>
          Generate
        </Button>
      </div>
      {share.has_password ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={clearPassword} onChange={(e) => setClearPassword(e.target.checked)} />
          Remove the password
        </label>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}
