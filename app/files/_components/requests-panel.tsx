'use client';

import { useFormatter, useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { ConfirmDialog, CopyButton, QrCode } from '@/app/_components/client-ui';
import { Badge, Button, Card, CheckboxField, ErrorText, Field } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { formatBytes, parseSize } from '@/lib/client/format';
import { usePagedList } from '@/lib/client/use-paged-list';
import { endpointPath } from '@/lib/contract/endpoints';
import type { BodyOf, ResponseOf } from '@/lib/contract/operations';
import { onAsync } from '@/lib/client/on-async';
import { ExpiryPicker, expiryFromChoice, type ExpiryChoice } from './expiry-picker';
import { absolute } from './upload-progress';
import { useDescribeError } from '@/lib/client/error-text';

type FileRequest = ResponseOf<'listRequests'>['requests'][number];
type Received = ResponseOf<'listShares'>['shares'][number];

type RequestsT = ReturnType<typeof useTranslations<'requests'>>;
/** Examples of what the fields take, in the one notation they read in every language (a size for parseSize, MIME types and extensions). */
const SIZE_EXAMPLE = '50 GB';
const TYPES_EXAMPLE = 'video/*, .pdf';

/** What a request is to its owner now: closed, expired, full or open (the message that names it). */
function stateOf(r: FileRequest): { label: 'stateClosed' | 'stateExpired' | 'stateFull' | 'stateOpen'; tone: 'green' | 'zinc' | 'red' | 'amber' } {
  if (r.status === 'closed') return { label: 'stateClosed', tone: 'zinc' };
  if (r.expires_at && Date.parse(r.expires_at) <= Date.now()) return { label: 'stateExpired', tone: 'red' };
  if (r.max_uploads !== null && r.upload_count >= r.max_uploads) return { label: 'stateFull', tone: 'amber' };
  return { label: 'stateOpen', tone: 'green' };
}

function limitsOf(r: FileRequest, t: RequestsT, locale: string): string {
  const parts = [
    r.max_files === null ? null : t('limitFiles', { count: r.max_files }),
    r.max_bytes === null ? null : t('limitBytes', { size: formatBytes(r.max_bytes, locale) }),
    r.max_uploads === null ? null : t('limitUploads', { count: r.max_uploads }),
    r.allowed_types ? r.allowed_types.join(', ') : null,
    r.require_name ? t('limitName') : null,
    r.has_password ? t('limitPassword') : null,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : t('noLimits');
}

/** Dates as the page's language writes them ("never" for none, as lib/client/format's formatDate). */
function useFormatDate(t: RequestsT) {
  const format = useFormatter();
  return (iso: string | null) => (iso ? format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' }) : t('never'));
}

/** The request form: new (`initial` undefined) or an edit of one request (only changed fields are sent). */
function RequestForm({ initial, onDone, onCancel }: { initial?: FileRequest; onDone: () => void; onCancel?: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('requests');
  const formatDate = useFormatDate(t);
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
    const whole = (text: string, problem: string): number | null | undefined => {
      if (!text.trim()) return null;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1) throw new Error(problem);
      return n;
    };
    try {
      const bytes = maxSize.trim() ? parseSize(maxSize, 'MB') : null;
      if (bytes === null && maxSize.trim()) throw new Error(t('sizeFormat'));
      const body: BodyOf<'updateRequest'> = {
        note,
        max_files: whole(maxFiles, t('filesWhole')),
        max_bytes: bytes,
        max_uploads: whole(maxUploads, t('uploadsWhole')),
        allowed_types: types.trim() ? types.split(',').map((x) => x.trim()).filter(Boolean) : null,
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
      <Field label={t('note')} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} placeholder={t('notePlaceholder')} />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label={t('maxFiles')} inputMode="numeric" value={maxFiles} onChange={(e) => setMaxFiles(e.target.value)} placeholder="500" />
        <Field label={t('maxSize')} value={maxSize} onChange={(e) => setMaxSize(e.target.value)} placeholder={SIZE_EXAMPLE} />
        <Field label={t('maxUploads')} inputMode="numeric" value={maxUploads} onChange={(e) => setMaxUploads(e.target.value)} placeholder={t('noLimit')} />
      </div>
      <Field label={t('types')} value={types} onChange={(e) => setTypes(e.target.value)} placeholder={TYPES_EXAMPLE} dir="ltr" hint={t('typesHint')} />
      <ExpiryPicker value={expiry} onChange={setExpiry} />
      {initial ? <p className="text-xs text-subtle">{t('expiryNow', { date: formatDate(initial.expires_at) })}</p> : null}
      <Field label={initial?.has_password ? t('newPasswordOptional') : t('passwordOptional')} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <CheckboxField checked={requireName} onChange={setRequireName}>
        {t('requireName')}
      </CheckboxField>
      <ErrorText>{error}</ErrorText>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {initial ? t('save') : t('create')}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            {t('cancel')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function RequestRow({ r, showOwner, onChanged }: { r: FileRequest; showOwner: boolean; onChanged: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('requests');
  const locale = useLocale();
  const formatDate = useFormatDate(t);
  const size = (n: number) => formatBytes(n, locale);
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
              <bdi>{r.note || t('untitled')}</bdi>
            </a>
            <Badge tone={state.tone}>{t(state.label)}</Badge>
          </div>
          <p className="mt-1 text-xs text-muted">
            {t('rowStats', { uploads: r.upload_count, size: size(r.received_bytes), limits: limitsOf(r, t, locale), date: formatDate(r.expires_at) })}
            {showOwner ? (
              <>
                {' · '}
                <bdi>{t('byOwner', { user: r.username })}</bdi>
              </>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <CopyButton text={link} />
          <Button variant="ghost" onClick={() => setOpen(open === 'qr' ? null : 'qr')} aria-expanded={open === 'qr'}>
            {t('qr')}
          </Button>
          <Button variant="ghost" onClick={() => void showUploads()} aria-expanded={open === 'uploads'}>
            {t('uploads')}
          </Button>
          {r.status === 'open' ? (
            <Button variant="ghost" onClick={() => void patch({ status: 'closed' })}>
              {t('close')}
            </Button>
          ) : (
            <Button variant="ghost" onClick={() => void patch({ status: 'open' })}>
              {t('reopen')}
            </Button>
          )}
          <Button variant="ghost" onClick={() => setOpen(open === 'edit' ? null : 'edit')} aria-expanded={open === 'edit'}>
            {t('edit')}
          </Button>
          <Button variant="ghost" onClick={() => setOpen('delete')}>
            {t('delete')}
          </Button>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
      {open === 'qr' ? (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <QrCode text={link} size={160} />
          <p dir="ltr" className="break-all text-sm">{link}</p>
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
          {uploads === null ? <li className="text-muted">{t('loading')}</li> : null}
          {uploads?.length === 0 ? <li className="text-muted">{t('nothingReceived')}</li> : null}
          {uploads?.map((s) => (
            <li key={s.id} className="break-words">
              <strong>
                <bdi>{s.received?.name || t('aGuest')}</bdi>
              </strong>{' '}
              ·{' '}
              {t('uploadLine', {
                files: s.file_count,
                size: size(s.total_bytes),
                state: s.upload_state === 'pending' ? t('arriving') : s.status === 'online' ? t('online') : t('offline'),
                date: formatDate(s.created_at),
              })}
            </li>
          ))}
          {unfinished.length > 0 ? (
            <li className="flex flex-wrap items-center gap-2 pt-1" data-testid="request-unfinished">
              <span className="text-muted">
                {t('unfinished', { count: unfinished.length, size: size(held) })}
              </span>
              <Button variant="secondary" onClick={() => setDiscarding(true)}>
                {t('discardAll')}
              </Button>
            </li>
          ) : null}
        </ul>
      ) : null}
      <ConfirmDialog
        open={discarding}
        title={t('discardTitle', { count: unfinished.length })}
        text={t('discardText', { count: unfinished.length, size: size(held) })}
        action={t('discardAll')}
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
        title={t('deleteTitle')}
        text={t('deleteText')}
        action={t('deleteAction')}
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
  const t = useTranslations('requests');
  const list = usePagedList('listRequests');
  const [creating, setCreating] = useState(false);
  return (
    <Card>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold">{t('heading')}</h2>
          <p className="text-sm text-subtle">{t('intro')}</p>
        </div>
        {canCreate && !creating ? <Button onClick={() => setCreating(true)}>{t('newRequest')}</Button> : null}
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
      {list.entries === null ? <p className="text-sm text-muted">{t('loading')}</p> : null}
      {list.entries?.length === 0 ? <p className="text-sm text-muted" data-testid="requests-empty">{canCreate ? t('emptyCreate') : t('empty')}</p> : null}
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {list.entries?.map((r) => <RequestRow key={r.id} r={r} showOwner={admin && r.user_id !== myId} onChanged={() => void list.reload()} />)}
      </ul>
      {list.hasMore ? (
        <Button variant="secondary" className="mt-3" onClick={() => void list.loadMore()} disabled={list.loading}>
          {t('loadMore')}
        </Button>
      ) : null}
    </Card>
  );
}
