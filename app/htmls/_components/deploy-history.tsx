'use client';

import { useFormatter, useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { Badge, bdiTag, Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { formatBytes } from '@/lib/client/format';
import { useDescribeError } from '@/lib/client/error-text';
import { useApiData } from '@/lib/client/use-api-data';
import { onAsync } from '@/lib/client/on-async';

/** A project's kept deploys: when, how many files, how big, who; preview and roll back. */
export function DeployHistory({ slug, hostedBase, liveId, onChanged }: { slug: string; hostedBase: string | null; liveId: string | null; onChanged: () => void }) {
  const t = useTranslations('projects');
  const locale = useLocale();
  const format = useFormatter();
  const describeError = useDescribeError();
  const { data, error, setError } = useApiData('listDeploys', { slug }, [liveId]);
  const deploys = data?.deploys ?? null;
  const [busy, setBusy] = useState('');

  async function activate(id: string) {
    setError('');
    setBusy(id);
    try {
      await callOperation('activateDeploy', { params: { slug, id } });
      onChanged();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy('');
    }
  }

  if (deploys === null) return <p className="mt-3 text-sm text-muted">{error || t('deploysLoading')}</p>;
  return (
    <div className="mt-3" data-testid={`deploys-${slug}`}>
      <ErrorText>{error}</ErrorText>
      <ol className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
        {deploys.map((d) => (
          <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid={`deploy-${d.id}`}>
            <span className="flex flex-wrap items-center gap-2">
              <bdi className="font-mono text-xs text-muted">{d.id}</bdi>
              <span>{format.dateTime(new Date(d.created_at), { dateStyle: 'medium', timeStyle: 'short' })}</span>
              <span className="text-muted">
                {t.rich('deployMeta', { count: d.file_count, size: formatBytes(d.total_bytes, locale), who: d.created_by || t('admin'), bdi: bdiTag })}
              </span>
              {d.active ? <Badge tone="green">{t('live')}</Badge> : null}
            </span>
            <span className="flex gap-1">
              <a href={hostedBase ? hostedBase.replace('{slug}', slug) + d.url : d.url} target="_blank" rel="noreferrer" className="rounded-md px-2 py-1 text-indigo-700 hover:underline dark:text-indigo-300">
                {t('preview')}
              </a>
              {d.active ? null : (
                <Button variant="secondary" disabled={busy !== ''} onClick={onAsync(() => activate(d.id))}>
                  {busy === d.id ? t('rollingBack') : t('rollBack')}
                </Button>
              )}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
