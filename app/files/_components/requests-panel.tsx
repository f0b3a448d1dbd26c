'use client';

import { useState } from 'react';
import { ConfirmDialog, CopyButton, QrCode } from '@/app/_components/client-ui';
import { Badge, Button, Card, CheckboxField, ErrorText, Field } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { describeError, formatBytes, formatDate, parseSize } from '@/lib/client/format';
import { usePagedList } from '@/lib/client/use-paged-list';
import { endpointPath } from '@/lib/contract/endpoints';
import type { BodyOf, ResponseOf } from '@/lib/contract/operations';
import { onAsync } from '@/lib/client/on-async';
import { ExpiryPicker, expiryFromChoice, type ExpiryChoice } from './expiry-picker';
import { absolute } from './upload-progress';

type FileRequest = ResponseOf<'listRequests'>['requests'][number];
type Received = ResponseOf<'listShares'>['shares'][number];

/** What a request is to its owner now: closed, expired, full or open. */
function stateOf(r: FileRequest): { label: string; tone: 'green' | 'zinc' | 'red' | 'amber' } {
  if (r.status === 'closed') return { label: 'closed', tone: 'zinc' };
  if (r.expires_at && Date.parse(r.expires_at) <= Date.now()) return { label: 'expired', tone: 'red' };
  if (r.max_uploads !== null && r.upload_count >= r.max_uploads) return { label: 'full', tone: 'amber' };
  return { label: 'open', tone: 'green' };
}

function limitsOf(r: FileRequest): string {
  const parts = [
    r.max_files === null ? null : `up to ${r.max_files} ${r.max_files === 1 ? 'file' : 'files'}`,
    r.max_bytes === null ? null : `${formatBytes(r.max_bytes)} each upload`,
    r.max_uploads === null ? null : `${r.max_uploads} ${r.max_uploads === 1 ? 'upload' : 'uploads'}`,
    r.allowed_types ? r.allowed_types.join(', ') : null,
    r.require_name ? 'name required' : null,
    r.has_password ? 'password' : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'no limits beyond the service’s';
}

/** The request form: new (`initial` undefined) or an edit of one request (only changed fields are sent). */
function RequestForm({ initial, onDone, onCancel }: { initial?: FileRequest; onDone: () => void; onCancel?: () => void }) {
  const [note, setNote] = useState(initial?.note ?? '');
  const [maxFiles, setMaxFiles] = useState(initial?.max_files?.toString() ?? '');
  const [maxSize, setMaxSize] = useState(initial?.max_bytes ? formatBytes(initial.max_bytes) : '');
  const [maxUploads, setMaxUploads] = useState(initial?.max_uploads?.toString() ?? '');
  const [types, setTypes] = useState(initial?.allowed_types?.join(', ') ?? '');
  const [requireName, setRequireName] = useState(initial?.require_name ?? false);
  const [password, setPassword] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoice>(initial ? { days: 0 } : { days: 7 });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function submit() {
    setError('');
    const whole = (text: string, what: string): number | null | undefined => {
      if (!text.trim()) return null;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${what} is a whole number of at least 1, or empty for no limit.`);
      return n;
    };
    try {
      const bytes = maxSize.trim() ? parseSize(maxSize, 'MB') : null;
      if (bytes === null && maxSize.trim()) throw new Error('Write the size as 500 MB or 2 GB, or leave it empty.');
      const body: BodyOf<'updateRequest'> = {
        note,
        max_files: whole(maxFiles, 'Most files'),
        max_bytes: bytes,
        max_uploads: whole(maxUploads, 'Most uploads'),
        allowed_types: types.trim() ? types.split(',').map((t) => t.trim()).filter(Boolean) : null,
        require_name: requireName,
      };
      if (!initial || !('days' in expiry && expiry.days === 0)) body.expires_at = expiryFromChoice(expiry);
      if (password) body.password = password;
      setBusy(true);
      if (initial) await callOperation('updateRequest', { params: { id: initial.id }, body });
      else await callOperation('createRequest', { body });
      onDone();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="space-y-3"
      data-testid="request-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field label="What you ask for (shown to senders)" value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} placeholder="Raw footage of Saturday's shoot" />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Most files per upload" inputMode="numeric" value={maxFiles} onChange={(e) => setMaxFiles(e.target.value)} placeholder="500" />
        <Field label="Most size per upload" value={maxSize} onChange={(e) => setMaxSize(e.target.value)} placeholder="50 GB" />
        <Field label="Most uploads" inputMode="numeric" value={maxUploads} onChange={(e) => setMaxUploads(e.target.value)} placeholder="no limit" />
      </div>
      <Field label="Allowed types (optional)" value={types} onChange={(e) => setTypes(e.target.value)} placeholder="video/*, .pdf" hint="MIME types or extensions, separated by commas; empty takes any file." />
      <ExpiryPicker value={expiry} onChange={setExpiry} />
      {initial ? <p className="text-xs text-subtle">Expiry now: {formatDate(initial.expires_at)} (choose Never to keep it).</p> : null}
      <Field label={initial?.has_password ? 'New password (optional)' : 'Password (optional)'} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <CheckboxField checked={requireName} onChange={setRequireName}>
        Senders must give their name
      </CheckboxField>
      <ErrorText>{error}</ErrorText>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {initial ? 'Save' : 'Create request link'}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function RequestRow({ r, showOwner, onChanged }: { r: FileRequest; showOwner: boolean; onChanged: () => void }) {
  const [open, setOpen] = useState<null | 'edit' | 'qr' | 'delete' | 'uploads'>(null);
  const [discarding, setDiscarding] = useState(false);
  const [uploads, setUploads] = useState<Received[] | null>(null);
  const [error, setError] = useState('');
  const link = absolute(r.url);
  const state = stateOf(r);

  async function patch(body: BodyOf<'updateRequest'>) {
    setError('');
    try {
      await callOperation('updateRequest', { params: { id: r.id }, body });
      onChanged();
    } catch (e) {
      setError(describeError(e));
    }
  }

  async function loadUploads() {
    try {
      const page = await api<ResponseOf<'listShares'>>(`${endpointPath('listShares')}?request=${encodeURIComponent(r.id)}&limit=200`);
      setUploads(page.shares);
    } catch (e) {
      setError(describeError(e));
    }
  }

  async function showUploads() {
    if (open === 'uploads') return setOpen(null);
    setOpen('uploads');
    await loadUploads();
  }

  const unfinished = uploads?.filter((s) => s.upload_state === 'pending') ?? [];
  const held = unfinished.reduce((n, s) => n + s.total_bytes, 0);

  return (
    <li className="py-3" data-testid={`request-${r.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <a href={r.url} target="_blank" rel="noreferrer" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
              {r.note || 'File request'}
            </a>
            <Badge tone={state.tone}>{state.label}</Badge>
          </div>
          <p className="mt-1 text-xs text-muted">
            {r.upload_count} {r.upload_count === 1 ? 'upload' : 'uploads'} · {formatBytes(r.received_bytes)} received · {limitsOf(r)} · expires {formatDate(r.expires_at)}
            {showOwner ? ` · by ${r.username}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <CopyButton text={link} />
          <Button variant="ghost" onClick={() => setOpen(open === 'qr' ? null : 'qr')} aria-expanded={open === 'qr'}>
            QR code
          </Button>
          <Button variant="ghost" onClick={() => void showUploads()} aria-expanded={open === 'uploads'}>
            Uploads
          </Button>
          {r.status === 'open' ? (
            <Button variant="ghost" onClick={() => void patch({ status: 'closed' })}>
              Close
            </Button>
          ) : (
            <Button variant="ghost" onClick={() => void patch({ status: 'open' })}>
              Reopen
            </Button>
          )}
          <Button variant="ghost" onClick={() => setOpen(open === 'edit' ? null : 'edit')} aria-expanded={open === 'edit'}>
            Edit
          </Button>
          <Button variant="ghost" onClick={() => setOpen('delete')}>
            Delete
          </Button>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
      {open === 'qr' ? (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <QrCode text={link} size={160} />
          <p className="break-all text-sm">{link}</p>
        </div>
      ) : null}
      {open === 'edit' ? (
        <div className="mt-3">
          <RequestForm
            initial={r}
            onCancel={() => setOpen(null)}
            onDone={() => {
              setOpen(null);
              onChanged();
            }}
          />
        </div>
      ) : null}
      {open === 'uploads' ? (
        <ul className="mt-3 space-y-1 text-sm" data-testid="request-uploads">
          {uploads === null ? <li className="text-muted">Loading…</li> : null}
          {uploads?.length === 0 ? <li className="text-muted">Nothing received yet.</li> : null}
          {uploads?.map((s) => (
            <li key={s.id} className="break-words">
              <strong>{s.received?.name || 'A guest'}</strong> · {s.file_count} {s.file_count === 1 ? 'file' : 'files'} · {formatBytes(s.total_bytes)} · {s.upload_state === 'pending' ? 'arriving' : s.status} · {formatDate(s.created_at)}
            </li>
          ))}
          {unfinished.length > 0 ? (
            <li className="flex flex-wrap items-center gap-2 pt-1" data-testid="request-unfinished">
              <span className="text-muted">
                {unfinished.length === 1 ? 'A guest’s upload is' : `${unfinished.length} guests’ uploads are`} unfinished, holding {formatBytes(held)} of your space; only the sender can resume {unfinished.length === 1 ? 'it' : 'them'}.
              </span>
              <Button variant="secondary" onClick={() => setDiscarding(true)}>
                Discard all
              </Button>
            </li>
          ) : null}
        </ul>
      ) : null}
      <ConfirmDialog
        open={discarding}
        title={unfinished.length === 1 ? 'Discard the guest’s unfinished upload?' : `Discard ${unfinished.length} guests’ unfinished uploads?`}
        text={`Guests started ${unfinished.length === 1 ? 'this upload' : 'these uploads'} through your file request and have not finished; only they can resume. The parts uploaded so far are deleted and the ${formatBytes(held)} they hold is freed. Finished uploads stay. This cannot be undone.`}
        action="Discard all"
        onClose={() => setDiscarding(false)}
        onConfirm={onAsync(async () => {
          setDiscarding(false);
          setError('');
          try {
            await callOperation('discardRequestUploads', { params: { id: r.id } });
            await loadUploads();
            onChanged();
          } catch (e) {
            setError(describeError(e));
          }
        })}
      />
      <ConfirmDialog
        open={open === 'delete'}
        title="Delete this request?"
        text="Its link stops working and unfinished uploads are discarded. Files already received stay in your shares."
        action="Delete request"
        onClose={() => setOpen(null)}
        onConfirm={onAsync(async () => {
          setOpen(null);
          try {
            await callOperation('deleteRequest', { params: { id: r.id } });
            onChanged();
          } catch (e) {
            setError(describeError(e));
          }
        })}
      />
    </li>
  );
}

/**
 * The Requests section of /files: links through which anyone sends files to you. Create one,
 * copy its link or show its QR code, see what arrived, close, reopen, edit or delete it. The
 * administrator sees every member's requests and can close any.
 */
export function RequestsPanel({ admin, canCreate, myId }: { admin: boolean; canCreate: boolean; myId: string | null }) {
  const list = usePagedList('listRequests');
  const [creating, setCreating] = useState(false);
  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold">File requests</h2>
          <p className="text-sm text-subtle">A link anyone can use to send you files, no account needed. What arrives is private until you put it online.</p>
        </div>
        {canCreate && !creating ? <Button onClick={() => setCreating(true)}>New request</Button> : null}
      </div>
      {creating ? (
        <div className="mb-4 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
          <RequestForm
            onCancel={() => setCreating(false)}
            onDone={() => {
              setCreating(false);
              void list.reload();
            }}
          />
        </div>
      ) : null}
      <ErrorText>{list.error}</ErrorText>
      {list.entries === null ? <p className="text-sm text-muted">Loading…</p> : null}
      {list.entries?.length === 0 ? <p className="text-sm text-muted" data-testid="requests-empty">No requests yet.{canCreate ? ' Make one to receive files from anyone.' : ''}</p> : null}
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {list.entries?.map((r) => <RequestRow key={r.id} r={r} showOwner={admin && r.user_id !== myId} onChanged={() => void list.reload()} />)}
      </ul>
      {list.hasMore ? (
        <Button variant="secondary" className="mt-3" onClick={() => void list.loadMore()} disabled={list.loading}>
          Load more
        </Button>
      ) : null}
    </Card>
  );
}
