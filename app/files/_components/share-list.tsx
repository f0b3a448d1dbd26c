'use client';

import { useTranslations } from 'next-intl';
import { LoadMore, SearchBox } from '@/app/_components/paging';
import { Card, ErrorText } from '@/app/_components/ui';
import type { PickedFile } from '@/lib/client/collect-files';
import { ShareRow, type LiveUpload } from './share-row';
import type { FilesSession } from './types';
import type { SharesData } from './use-shares';
import type { UploadRunner } from './use-upload-runner';

export function ShareList({
  session,
  data,
  busy,
  live = null,
  adder,
  onResume,
  onChanged,
}: {
  session: FilesSession;
  data: SharesData;
  busy: boolean;
  /** The upload running in this tab, if any: its row shows it live. */
  live?: LiveUpload | null;
  /** The runner for files added to published shares. */
  adder: UploadRunner;
  onResume: (groupId: string, files: PickedFile[]) => Promise<void>;
  onChanged: () => void;
}) {
  const t = useTranslations('shares');
  const { shares, error, pending, additions, query } = data;
  const admin = session.role === 'admin';
  const myId = session.user?.id ?? null;
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold">{admin && !session.user ? t('allShares') : admin ? t('allSharesMembers') : t('yourShares')}</h2>
        {shares !== null && (shares.length > 0 || query) ? (
          <SearchBox value={query} onChange={data.setQuery} label={t('search')} placeholder={admin ? t('searchAdmin') : t('searchPlaceholder')} />
        ) : null}
      </div>
      <ErrorText>{error}</ErrorText>
      {shares === null ? (
        <p className="mt-3 text-sm text-muted">{t('loading')}</p>
      ) : shares.length === 0 && query ? (
        <p className="mt-3 text-sm text-muted">{t('noMatch', { query })}</p>
      ) : shares.length === 0 ? (
        <div className="mt-4 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-muted dark:border-zinc-700">
          {t('empty')}
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-200 dark:divide-zinc-800">
          {shares.map((s) => (
            <ShareRow
              key={s.id}
              share={s}
              mine={s.user_id === myId && s.received === null}
              owned={s.user_id === myId}
              showOwner={admin}
              record={pending.get(s.id)}
              addition={additions.get(s.id)}
              adder={adder}
              busy={busy}
              live={live?.groupId === s.id ? live : undefined}
              onResume={(files) => onResume(s.id, files)}
              onChanged={onChanged}
            />
          ))}
        </ul>
      )}
      <LoadMore hasMore={data.hasMore} loading={data.loading} onMore={() => void data.loadMore()} label={t('loadMore')} loadingLabel={t('loading')} />
    </Card>
  );
}
