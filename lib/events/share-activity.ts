import 'server-only';
import type { z } from 'zod';
import { downloadsPerDay, listDownloadActivity } from '@/db/queries/activity';
import { findShareOwnedBy } from '@/db/queries/shares';
import { managedBy } from '../auth/owner';
import type { Principal } from '../auth/principal';
import type { shareActivitySchema } from '../contract/responses';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';

type ShareActivityDto = z.output<typeof shareActivitySchema>;

/** Days the chart covers, and download rows the list shows. */
const CHART_DAYS = 30;
const LIST_ROWS = 200;

/**
 * GET /api/shares/:id/activity — downloads per day (the last 30 days, UTC) and the newest 200
 * downloads (one per ticket or client window: db/queries/activity.ts) with time, item, bytes
 * summed and of what size, completed or not, and the guest's truncated address and
 * user agent. The owner's (the administrator: any share's); another member's share is a 404.
 */
export async function getShareActivity(rt: Runtime, principal: Principal, id: string): Promise<ShareActivityDto> {
  const share = await findShareOwnedBy(rt.db, managedBy(principal), id);
  if (!share) throw notFound('No such share');
  const [perDay, rows] = await Promise.all([downloadsPerDay(rt.db, id, CHART_DAYS), listDownloadActivity(rt.db, id, LIST_ROWS)]);
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const days: ShareActivityDto['per_day'] = [];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let i = CHART_DAYS - 1; i >= 0; i--) {
    const day = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
    days.push({ day, downloads: byDay.get(day)?.downloads ?? 0, completed: byDay.get(day)?.completed ?? 0 });
  }
  return {
    per_day: days,
    downloads: rows.map((r) => ({
      at: r.createdAt.toISOString(),
      path: r.path,
      bytes: Number(r.bytes),
      size: r.size === null ? null : Number(r.size),
      completed: r.completed,
      address: r.ip,
      user_agent: r.userAgent,
    })),
    retention_days: rt.env.events.activityRetentionDays,
  };
}
