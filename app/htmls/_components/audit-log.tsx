'use client';

import { useFormatter, useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { Button, Card, ErrorText } from '@/app/_components/ui';
import { api } from '@/lib/client/api';
import { formatBytes } from '@/lib/client/format';
import { useDescribeError } from '@/lib/client/error-text';
import type { ResponseOf } from '@/lib/contract/operations';

type Entry = ResponseOf<'listAudit'>['entries'][number];
type History = ResponseOf<'storageHistory'>;

/** Kept in step with AUDIT_ACTIONS (lib/contract/events.ts, which carries zod). */
const ACTIONS = ['admin.login', 'admin_token.changed', 'user.created', 'user.updated', 'user.deleted', 'settings.updated', 'site.deployed', 'site.rolled_back', 'project.updated', 'project.deleted', 'file.deleted', 'file.status', 'request.uploads_discarded'];
const COLORS = ['#6366f1', '#10b981', '#f59e0b', '#ef4444', '#0ea5e9', '#a855f7'];

const query = (action: string, actor: string, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams(extra);
  if (action) q.set('action', action);
  if (actor.trim()) q.set('actor', actor.trim());
  return q.toString();
};

const csvCell = (v: string) => (/[",\n\r]/.test(v) || /^[=+\-@\t]/.test(v) ? `"${(/^[=+\-@\t]/.test(v) ? `'${v}` : v).replace(/"/g, '""')}"` : v);

/** Each member's stored bytes per day: a line per member (the five largest), plain SVG. */
export function StorageChart({ history }: { history: History }) {
  const t = useTranslations('audit');
  const locale = useLocale();
  const format = useFormatter();
  // A day of the history (YYYY-MM-DD, in UTC) in the reader's language.
  const day = (d: string | undefined) => (d ? format.dateTime(new Date(`${d}T00:00:00Z`), { dateStyle: 'medium', timeZone: 'UTC' }) : '');
  const top = [...history.members].sort((a, b) => (b.bytes.at(-1) ?? 0) - (a.bytes.at(-1) ?? 0)).slice(0, COLORS.length);
  const max = Math.max(1, ...top.flatMap((m) => m.bytes.map((b) => b ?? 0)));
  const n = history.days.length;
  const x = (i: number) => (n <= 1 ? 150 : (i / (n - 1)) * 300);
  const y = (b: number) => 78 - (b / max) * 74;
  return (
    <figure>
      {/* Time runs the way the page reads: right to left in Arabic. */}
      <svg
        viewBox="0 0 300 80"
        preserveAspectRatio="none"
        className="h-32 w-full text-zinc-400 rtl:-scale-x-100"
        role="img"
        aria-label={t('chart', { from: day(history.days[0]), to: day(history.days.at(-1)) })}
        data-testid="storage-chart"
      >
        <line x1="0" y1="78.5" x2="300" y2="78.5" stroke="currentColor" strokeOpacity="0.5" />
        {top.map((m, k) => {
          const pts = m.bytes.map((b, i) => (b === null ? null : `${x(i)},${y(b)}`)).filter(Boolean);
          return (
            <g key={m.user_id}>
              <title>{t('memberNow', { name: m.username, size: formatBytes(m.bytes.at(-1) ?? 0, locale) })}</title>
              <polyline points={pts.join(' ')} fill="none" stroke={COLORS[k]} strokeWidth="2" vectorEffect="non-scaling-stroke" />
              {pts.length === 1 ? <circle cx={pts[0]!.split(',')[0]} cy={pts[0]!.split(',')[1]} r="2" fill={COLORS[k]} /> : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        {top.length === 0 ? <span>{t('noStorage')}</span> : null}
        {top.map((m, k) => (
          <span key={m.user_id} className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block size-2.5 rounded-full" style={{ background: COLORS[k] }} />
            <bdi>{m.username}</bdi> · {formatBytes(m.bytes.at(-1) ?? 0, locale)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** /htmls → Audit log: who did what and when, filterable, exported as CSV; and the storage chart. */
export function AuditLog() {
  const t = useTranslations('audit');
  const format = useFormatter();
  const describeError = useDescribeError();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [history, setHistory] = useState<History | null>(null);
  const [error, setError] = useState('');

  const load = useCallback(
    async (after?: string) => {
      try {
        const page = await api<ResponseOf<'listAudit'>>(`/api/audit?${query(action, actor, after ? { cursor: after } : {})}`);
        setEntries((e) => (after ? [...e, ...page.entries] : page.entries));
        setCursor(page.next_cursor);
      } catch (err) {
        setError(describeError(err));
      }
    },
    [action, actor, describeError],
  );
  useEffect(() => void load(), [load]);
  useEffect(() => {
    api<History>('/api/storage/history?days=30').then(setHistory, (err) => setError(describeError(err)));
  }, [describeError]);

  async function exportCsv() {
    setError('');
    try {
      const rows: Entry[] = [];
      let after: string | null = null;
      do {
        const page: ResponseOf<'listAudit'> = await api(`/api/audit?${query(action, actor, { limit: '1000', ...(after ? { cursor: after } : {}) })}`);
        rows.push(...page.entries);
        after = page.next_cursor;
      } while (after && rows.length < 100_000);
      const csv = ['time,actor,action,target,address', ...rows.map((r) => [r.at, r.actor, r.action, r.target, r.address].map(csvCell).join(','))].join('\r\n');
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
      a.download = `htmls-audit-${new Date().toISOString().slice(0, 10)}.csv`;
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <Card>
      <h2 id="audit-heading" className="text-base font-semibold">
        {t('heading')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('intro')}</p>
      <div className="mt-3 flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          {t('action')}
          <select value={action} onChange={(e) => setAction(e.target.value)} className="min-h-11 rounded-md border border-zinc-300 bg-white px-2 dark:border-zinc-700 dark:bg-zinc-900">
            <option value="">{t('allActions')}</option>
            {ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          {t('actor')}
          <input value={actor} onChange={(e) => setActor(e.target.value)} placeholder={t('actorPlaceholder')} className="min-h-11 rounded-md border border-zinc-300 bg-white px-3 dark:border-zinc-700 dark:bg-zinc-900" />
        </label>
        <Button variant="secondary" onClick={() => void exportCsv()}>
          {t('export')}
        </Button>
      </div>
      <ErrorText>{error}</ErrorText>
      {entries.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{action || actor ? t('nothingForFilter') : t('nothingYet')}</p>
      ) : (
        <div className="mt-3 sm:overflow-x-auto">
          {/* On a phone each entry is a stacked card (when and who, then what and on what), not a
              700 px-tall table row; explicit roles keep it a table for assistive technology. */}
          <table role="table" className="w-full text-start text-sm max-sm:block" aria-labelledby="audit-heading">
            <thead role="rowgroup" className="text-xs text-muted max-sm:sr-only">
              <tr role="row">
                <th role="columnheader" className="py-1 pe-3 text-start font-medium">{t('when')}</th>
                <th role="columnheader" className="py-1 pe-3 text-start font-medium">{t('who')}</th>
                <th role="columnheader" className="py-1 pe-3 text-start font-medium">{t('what')}</th>
                <th role="columnheader" className="py-1 pe-3 text-start font-medium">{t('on')}</th>
              </tr>
            </thead>
            <tbody role="rowgroup" className="divide-y divide-zinc-200 dark:divide-zinc-800 max-sm:block">
              {entries.map((e) => (
                <tr role="row" key={e.id} data-testid="audit-row" className="max-sm:flex max-sm:flex-wrap max-sm:gap-x-2 max-sm:py-2">
                  <td role="cell" className="py-1.5 pe-3 whitespace-nowrap max-sm:p-0 max-sm:text-xs max-sm:text-muted">
                    <time dateTime={e.at}>{format.dateTime(new Date(e.at), { dateStyle: 'medium', timeStyle: 'short' })}</time>
                  </td>
                  <td role="cell" className="py-1.5 pe-3 max-sm:p-0 max-sm:text-xs max-sm:font-medium">
                    <bdi>{e.actor}</bdi>
                  </td>
                  <td role="cell" className="py-1.5 pe-3 max-sm:w-full max-sm:p-0 max-sm:font-mono max-sm:text-xs">
                    <bdi dir="ltr">{e.action}</bdi>
                  </td>
                  <td role="cell" className="py-1.5 pe-3 break-all max-sm:w-full max-sm:p-0">
                    <bdi>{e.target}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor ? (
        <Button variant="ghost" onClick={() => void load(cursor)}>
          {t('loadMore')}
        </Button>
      ) : null}
      <h3 className="mt-6 text-sm font-semibold">{t('storage')}</h3>
      {history ? <StorageChart history={history} /> : <p className="text-sm text-muted">{t('loading')}</p>}
    </Card>
  );
}
