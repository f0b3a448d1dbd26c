'use client';

import { useLocale, useTranslations } from 'next-intl';
import { formatBytes } from '@/lib/client/format';
import type { UserDto } from '@/lib/contract/dtos';

/**
 * Used, held by unfinished uploads, and free: the three numbers init checks against. A
 * discarded or completed upload moves its part from "held" at once.
 */
export function QuotaMeter({ user, reserved, className = 'w-56' }: { user: UserDto; reserved: number; className?: string }) {
  const t = useTranslations('files');
  const locale = useLocale();
  const size = (n: number) => formatBytes(n, locale);
  const quota = user.quota_bytes;
  const free = Math.max(0, quota - user.used_bytes - reserved);
  const pct = (n: number) => (quota > 0 ? Math.min(100, (n / quota) * 100) : 0);
  const full = quota <= 0 || free / quota < 0.1;
  return (
    <div className={className} data-testid="quota">
      <div className="mb-1 flex justify-between gap-2 text-xs text-subtle">
        <span>{t('quota.used', { used: size(user.used_bytes), quota: size(quota) })}</span>
        {full ? <span className="font-medium text-amber-700 dark:text-amber-400">{t('quota.almostFull')}</span> : null}
      </div>
      <div
        role="meter"
        aria-label={t('quota.label')}
        aria-valuemin={0}
        aria-valuemax={quota}
        aria-valuenow={user.used_bytes + reserved}
        aria-valuetext={t('quota.valueText', { used: size(user.used_bytes), held: size(reserved), free: size(free) })}
        className="flex h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full bg-indigo-600" style={{ width: `${pct(user.used_bytes)}%` }} />
        <div className="h-full bg-amber-500" style={{ width: `${pct(reserved)}%` }} />
      </div>
      <p className="mt-1 text-xs text-subtle" data-testid="quota-free">
        {reserved > 0 ? t('quota.freeHeld', { free: size(free), held: size(reserved) }) : t('quota.free', { free: size(free) })}
      </p>
    </div>
  );
}
