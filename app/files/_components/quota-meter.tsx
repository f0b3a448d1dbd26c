import { formatBytes } from '@/lib/client/format';
import type { UserDto } from '@/lib/contract/dtos';

/**
 * Used, held by unfinished uploads, and free: the three numbers init checks against. A
 * discarded or completed upload moves its part from "held" at once.
 */
export function QuotaMeter({ user, reserved, className = 'w-56' }: { user: UserDto; reserved: number; className?: string }) {
  const quota = user.quota_bytes;
  const free = Math.max(0, quota - user.used_bytes - reserved);
  const pct = (n: number) => (quota > 0 ? Math.min(100, (n / quota) * 100) : 0);
  const full = quota <= 0 || free / quota < 0.1;
  return (
    <div className={className} data-testid="quota">
      <div className="mb-1 flex justify-between gap-2 text-xs text-subtle">
        <span>
          {formatBytes(user.used_bytes)} of {formatBytes(quota)} used
        </span>
        {full ? <span className="font-medium text-amber-700 dark:text-amber-400">almost full</span> : null}
      </div>
      <div
        role="meter"
        aria-label="Storage quota"
        aria-valuemin={0}
        aria-valuemax={quota}
        aria-valuenow={user.used_bytes + reserved}
        aria-valuetext={`${formatBytes(user.used_bytes)} used, ${formatBytes(reserved)} held by unfinished uploads, ${formatBytes(free)} free`}
        className="flex h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full bg-indigo-600" style={{ width: `${pct(user.used_bytes)}%` }} />
        <div className="h-full bg-amber-500" style={{ width: `${pct(reserved)}%` }} />
      </div>
      <p className="mt-1 text-xs text-subtle" data-testid="quota-free">
        {formatBytes(free)} free{reserved > 0 ? ` · ${formatBytes(reserved)} held by unfinished uploads` : ''}
      </p>
    </div>
  );
}
