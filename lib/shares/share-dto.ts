import 'server-only';
import type { ShareItemDto, ShareDto, ShareSummaryDto } from '../contract/dtos';
import type { ShareSummaryRow } from '@/db/queries/lists';
import type { ShareWithItems } from '@/db/queries/shares';
import type { ShareGroupRow } from '@/db/schema';
import { encodeUrlPath } from '../paths/relative-path';
import { shareTitle } from '../share-title';

// The response types live in the contract (clients import them from there).
export type { ShareItemDto, ShareDto, ShareSummaryDto } from '../contract/dtos';

export const shareItemUrl = (id: string, relativePath: string) => `/f/${id}/${encodeUrlPath(relativePath)}`;

/** The one shape a share leaves the server in: never the password hash or storage keys. */
function toSummary(group: ShareGroupRow, username: string | null, fileCount: number, firstPath: string | null): ShareSummaryDto {
  return {
    id: group.id,
    note: group.note,
    title: shareTitle(group.note, firstPath, fileCount),
    status: group.status,
    upload_state: group.uploadState,
    expires_at: group.expiresAt ? group.expiresAt.toISOString() : null,
    has_password: group.passwordHash !== null,
    user_id: group.userId,
    username,
    file_count: fileCount,
    total_bytes: group.uploadState === 'complete' ? Number(group.totalBytes) : Number(group.reservedBytes),
    download_count: Number(group.downloadCount),
    max_downloads: group.maxDownloads,
    created_at: group.createdAt.toISOString(),
    url: `/f/${group.id}`,
    received:
      group.requestId === null
        ? null
        : { request_id: group.requestId, name: group.receivedName ?? '', email: group.receivedEmail ?? '', message: group.receivedMessage ?? '' },
  };
}

/** A list entry: the share without its items. */
export const toShareSummaryDto = (r: ShareSummaryRow): ShareSummaryDto => toSummary(r.group, r.username, r.fileCount, r.firstPath);

/** The first path in code-point order, as `collate "C"` orders them in the list's query. */
const firstPathOf = (paths: string[]) => paths.reduce<string | null>((a, p) => (a === null || p < a ? p : a), null);

/** The share with every item (GET /api/shares/:id, and what a change answers). */
export function toShareDto({ group, username, items }: ShareWithItems): ShareDto {
  return {
    ...toSummary(group, username, items.length, firstPathOf(items.map((it) => it.relativePath))),
    items: items.map((it) => ({
      relative_path: it.relativePath,
      size: Number(it.size),
      content_type: it.contentType,
      url: shareItemUrl(group.id, it.relativePath),
      download_count: Number(it.downloadCount),
    })),
  };
}
