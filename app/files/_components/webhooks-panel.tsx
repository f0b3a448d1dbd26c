'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { CopyButton } from '@/app/_components/client-ui';
import { Badge, Button, Card, Checkbox, CHECKBOX_LABEL, ErrorText, Field } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { ADMIN_EVENT_TYPES, EVENT_TYPES, type EventType } from '@/lib/contract/event-types';
import type { ResponseOf } from '@/lib/contract/operations';
import { onAsync } from '@/lib/client/on-async';
import { useDescribeError } from '@/lib/client/error-text';

type Webhook = ResponseOf<'listWebhooks'>['webhooks'][number];
type Delivery = ResponseOf<'listDeliveries'>['deliveries'][number];

const TONE = { delivered: 'green', pending: 'amber', failed: 'red' } as const;
/** An example receiver: a URL reads the same in every language. */
const URL_EXAMPLE = 'https://example.com/hooks/htmls';
const STATUS = { delivered: 'statusDelivered', pending: 'statusPending', failed: 'statusFailed' } as const;

/** Dates as the page's language writes them. */
function useFormatDate() {
  const format = useFormatter();
  return (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
}

/** While a shown log has a pending delivery, it is read again this often (a redelivery's outcome shows without reopening). */
const REFRESH_MS = 2000;

/** What the receiver answered to the last attempt: its status and the start of its body, or why there was no answer. */
function Answer({ d }: { d: Delivery }) {
  const t = useTranslations('webhooks');
  if (d.response_status === null && !d.error) return <p>{t('noAttempt')}</p>;
  return (
    <>
      <p dir="ltr" className="text-start">{d.response_status !== null ? `HTTP ${d.response_status}` : d.error}</p>
      {d.response_body ? <pre dir="ltr" className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 dark:bg-zinc-900">{d.response_body}</pre> : null}
    </>
  );
}

/**
 * One webhook's delivery log, newest first, each with its payload, the receiver's answer and
 * Redeliver. `refresh` changes when a delivery was queued from outside (Send test event).
 */
function Deliveries({ hook, refresh }: { hook: Webhook; refresh: number }) {
  const describeError = useDescribeError();
  const t = useTranslations('webhooks');
  const formatDate = useFormatDate();
  const [rows, setRows] = useState<Delivery[] | null>(null);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    callOperation('listDeliveries', { params: { id: hook.id } }).then(
      (r) => setRows(r.deliveries),
      (err) => setError(describeError(err)),
    );
  }, [hook.id]);
  useEffect(() => {
    if (open) load();
  }, [open, refresh, load]);
  const waiting = open && (rows ?? []).some((d) => d.status === 'pending');
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, load]);
  async function redeliver(d: Delivery) {
    setError('');
    try {
      await callOperation('redeliver', { params: { id: hook.id, delivery_id: d.id } });
      load();
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <details className="mt-2 text-xs text-muted" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer">{t('deliveries')}</summary>
      <ErrorText>{error}</ErrorText>
      {rows === null && !error ? <p className="mt-1">{t('loading')}</p> : null}
      {rows && rows.length === 0 ? <p className="mt-1">{t('nothingSent')}</p> : null}
      <ul className="mt-1 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={t('deliveriesTo', { url: hook.url })}>
        {(rows ?? []).map((d) => (
          <li key={d.id} className="py-1.5">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="flex flex-wrap items-center gap-2">
                <Badge tone={TONE[d.status]}>{t(STATUS[d.status])}</Badge>
                <bdi className="text-zinc-800 dark:text-zinc-200">{d.type}</bdi>
                <span>
                  {t('attempts', { count: d.attempts })}
                  {d.response_status !== null ? `, HTTP ${d.response_status}` : ''}
                </span>
                <time dateTime={d.created_at}>{formatDate(d.created_at)}</time>
              </span>
              <Button variant="secondary" onClick={onAsync(() => redeliver(d))} aria-label={t('redeliverLabel', { type: d.type, date: formatDate(d.created_at) })}>
                {t('redeliver')}
              </Button>
            </div>
            <details className="mt-1">
              <summary className="cursor-pointer">{t('payloadAndAnswer')}</summary>
              <div className="mt-1 grid gap-2 sm:grid-cols-2">
                <div>
                  <p className="font-medium">{t('sent')}</p>
                  <pre dir="ltr" className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 dark:bg-zinc-900">{JSON.stringify(d.payload, null, 2)}</pre>
                </div>
                <div>
                  <p className="font-medium">{t('answer')}</p>
                  <Answer d={d} />
                </div>
              </div>
            </details>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * /files → Settings → Webhooks: signed POSTs to your own URL when your shares are created,
 * downloaded or expire (administrators: also deploys). The signing secret is shown once.
 */
export function WebhooksPanel({ admin }: { admin: boolean }) {
  const describeError = useDescribeError();
  const t = useTranslations('webhooks');
  const formatDate = useFormatDate();
  const [hooks, setHooks] = useState<Webhook[]>([]);
  const [url, setUrl] = useState('');
  const types = EVENT_TYPES.filter((type) => admin || !ADMIN_EVENT_TYPES.includes(type));
  const [events, setEvents] = useState<EventType[]>(['share.downloaded']);
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    try {
      setHooks((await api<ResponseOf<'listWebhooks'>>('/api/webhooks?limit=200')).webhooks);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    try {
      const made = await callOperation('createWebhook', { body: { url: url.trim(), events } });
      setSecret({ url: made.webhook.url, value: made.secret });
      setUrl('');
      await load();
    } catch (err) {
      setError(describeError(err));
    }
  }

  /** Bumped for a webhook when a test event was queued for it: its open log reloads. */
  const [sent, setSent] = useState<Record<string, number>>({});
  async function sendTest(hook: Webhook) {
    setError('');
    try {
      await callOperation('testWebhook', { params: { id: hook.id } });
      setSent((s) => ({ ...s, [hook.id]: (s[hook.id] ?? 0) + 1 }));
    } catch (err) {
      setError(describeError(err));
    }
  }

  async function change(hook: Webhook, body: { active?: boolean } | null) {
    setError('');
    try {
      if (body) await callOperation('updateWebhook', { params: { id: hook.id }, body });
      else await callOperation('deleteWebhook', { params: { id: hook.id } });
      await load();
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">{t('heading')}</h2>
      <p className="mt-1 text-sm text-muted">{t('intro')}</p>
      <form onSubmit={onAsync(submit)} className="mt-4 space-y-3">
        <Field label={t('receiverUrl')} type="url" dir="ltr" required placeholder={URL_EXAMPLE} value={url} maxLength={2000} onChange={(e) => setUrl(e.target.value)} />
        <fieldset>
          <legend className="text-sm font-medium">{t('events')}</legend>
          <div className="mt-1 flex flex-wrap gap-x-5">
            {types.map((type) => (
              <label key={type} className={`${CHECKBOX_LABEL} min-w-11 text-sm`}>
                <Checkbox checked={events.includes(type)} onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((x) => x !== type))} />
                <bdi>{type}</bdi>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorText>{error}</ErrorText>
        <Button type="submit" disabled={events.length === 0}>
          {t('add')}
        </Button>
      </form>
      {secret ? (
        <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950" role="status">
          <p>
            {t.rich('signingSecret', {
              url: secret.url,
              addr: (chunks) => <bdi className="break-all">{chunks}</bdi>,
            })}
          </p>
          <code className="mt-1 block break-all">{secret.value}</code>
          <div className="mt-2">
            <CopyButton text={secret.value} label={t('copySecret')} />
          </div>
        </div>
      ) : null}
      {hooks.length === 0 ? (
        <p className="mt-4 text-sm text-muted">{t('none')}</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {hooks.map((h) => (
            <li key={h.id} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <bdi className="break-all text-sm font-medium">{h.url}</bdi>
                <span className="flex flex-wrap gap-2">
                  <Button variant="secondary" onClick={onAsync(() => sendTest(h))} aria-label={t('sendTestLabel', { url: h.url })}>
                    {t('sendTest')}
                  </Button>
                  <Button variant="secondary" onClick={onAsync(() => change(h, { active: !h.active }))}>
                    {h.active ? t('pause') : t('resume')}
                  </Button>
                  <Button variant="danger" onClick={onAsync(() => change(h, null))} aria-label={t('deleteLabel', { url: h.url })}>
                    {t('delete')}
                  </Button>
                </span>
              </div>
              <p className="mt-1 text-xs text-muted">
                <bdi>{h.events.join(', ')}</bdi> · {h.active ? t('active') : t('paused')}
                {h.last_delivery_at
                  ? ` · ${h.last_status !== null ? t('lastDeliveryStatus', { date: formatDate(h.last_delivery_at), status: h.last_status }) : t('lastDelivery', { date: formatDate(h.last_delivery_at) })}`
                  : ''}
              </p>
              {h.paused_reason ? (
                <p className="mt-1 text-xs text-red-700 dark:text-red-400" role="status">
                  {h.paused_reason}
                </p>
              ) : null}
              <Deliveries hook={h} refresh={sent[h.id] ?? 0} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
