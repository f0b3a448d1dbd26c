'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, codeTag, ErrorText, Field, ltrItems } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import type { ProjectSummaryDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';

type DnsState = { host: string; points_here: boolean; addresses: string[]; service_addresses: string[]; error: string | null };

/**
 * A project's custom domains: add and remove them, and see for each whether its DNS points
 * here — the server's own lookup, with what it answered (README "Custom domains").
 */
export function DomainsPanel({ project: p, onChanged }: { project: ProjectSummaryDto; onChanged: () => void }) {
  const t = useTranslations('projects');
  const describeError = useDescribeError();
  const format = useFormatter();
  /** Addresses, each left to right, as a list in the reader's language. */
  const addressList = (addresses: string[]) => () => format.list(ltrItems(addresses), { type: 'conjunction' });
  const [states, setStates] = useState<DnsState[] | null>(null);
  const [adding, setAdding] = useState('');
  const [error, setError] = useState('');
  const check = useCallback(async () => {
    try {
      setStates((await callOperation('checkProjectDomains', { params: { slug: p.slug } })).domains);
    } catch (err) {
      setError(describeError(err));
    }
  }, [p.slug, describeError]);
  useEffect(() => {
    void check();
  }, [check, p.domains]);

  async function save(domains: string[]) {
    setError('');
    try {
      await callOperation('updateProject', { params: { slug: p.slug }, body: { domains } });
      setAdding('');
      onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <div className="mt-3 space-y-2 text-sm" data-testid={`domains-${p.slug}`}>
      {p.domains.length === 0 ? <p className="text-muted">{t('noDomain')}</p> : null}
      <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {p.domains.map((host) => {
          const s = states?.find((d) => d.host === host);
          return (
            <li key={host} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
              <span className="flex flex-wrap items-center gap-2">
                <a href={`https://${host}/`} target="_blank" rel="noreferrer" dir="ltr" className="font-mono hover:underline">
                  {host}
                </a>
                {!s ? <Badge>{t('checkingDns')}</Badge> : s.points_here ? <Badge tone="green">{t('dnsHere')}</Badge> : <Badge tone="amber">{t('dnsNotHere')}</Badge>}
                {s ? (
                  <span className="text-xs text-muted">
                    {s.addresses.length > 0
                      ? t.rich('answers', { addresses: addressList(s.addresses) })
                      : // A resolver code this console knows is said in words; another one is shown as it is.
                        t.rich('noAddress', { reason: s.error ?? 'ENODATA', code: codeTag })}
                    {s.service_addresses.length > 0 ? t.rich('thisServer', { addresses: addressList(s.service_addresses) }) : null}
                  </span>
                ) : null}
              </span>
              <Button variant="ghost" onClick={onAsync(() => save(p.domains.filter((d) => d !== host)))} aria-label={t('removeDomain', { host })}>
                ✕
              </Button>
            </li>
          );
        })}
      </ul>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (adding.trim()) void save([...p.domains, adding.trim()]);
        }}
      >
        <Field label={t('addDomain')} placeholder={t('domainPlaceholder')} dir="ltr" value={adding} maxLength={253} onChange={(e) => setAdding(e.target.value)} />
        <Button type="submit" variant="secondary">
          {t('add')}
        </Button>
        <Button type="button" variant="ghost" onClick={() => void check()}>
          {t('checkAgain')}
        </Button>
      </form>
      <ErrorText>{error}</ErrorText>
    </div>
  );
}
