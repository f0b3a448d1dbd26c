'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { bdiTag } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import type { ShareItemDto } from '@/lib/contract/dtos';

/**
 * "Downloads per file" of one share: list entries carry no items (API.md: lists page), so the
 * share's items are fetched (GET /api/shares/:id) the first time this is opened.
 */
export function ShareItemDownloads({ shareId }: { shareId: string }) {
  const t = useTranslations('shares');
  const describeError = useDescribeError();
  const [items, setItems] = useState<ShareItemDto[] | null>(null);
  const [error, setError] = useState('');
  function toggled(open: boolean) {
    if (!open || items !== null) return;
    callOperation('getShare', { params: { id: shareId } }).then(
      (r) => setItems(r.share.items),
      (err) => setError(describeError(err)),
    );
  }
  return (
    <details className="mt-1 text-xs text-muted" onToggle={(e) => toggled(e.currentTarget.open)}>
      <summary className="cursor-pointer">{t('perFile')}</summary>
      {error ? <p className="mt-1 text-red-600">{error}</p> : null}
      {items === null && !error ? <p className="mt-1">{t('loading')}</p> : null}
      <ul className="mt-1 space-y-0.5">
        {(items ?? []).map((it) => (
          <li key={it.relative_path} className="break-all">
            {t.rich('perFileCount', { name: it.relative_path, count: it.download_count, bdi: bdiTag })}
          </li>
        ))}
      </ul>
    </details>
  );
}
