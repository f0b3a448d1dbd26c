import 'server-only';
import type { ShareWithItems } from '@/db/queries/shares';
import { encodeUrlPath } from '../paths/relative-path';

export interface ShareItemDto {
  relative_path: string;
  size: number;
  content_type: string;
  url: string;
  /** Completed guest downloads of this item (written about once a second). */
  download_count: number;
}

export interface ShareDto {
  id: string;
  note: string;
  status: 'online' | 'offline';
  upload_state: 'pending' | 'complete';
  expires_at: string | null;
  has_password: boolean;
  user_id: string | null;
  username: string | null;
  file_count: number;
  total_bytes: number;
  /** Completed guest downloads of any item or the ZIP. */
  download_count: number;
  /** Null: unlimited. Once download_count reaches it, guests get 410 download_limit. */
  max_downloads: number | null;
  created_at: string;
  url: string;
  items: ShareItemDto[];
}

export const shareItemUrl = (id: string, relativePath: string) => `/f/${id}/${encodeUrlPath(relativePath)}`;

/** The one shape a share leaves the server in: never the password hash or storage keys. */
export function toShareDto({ group, username, items }: ShareWithItems): ShareDto {
  return {
    id: group.id,
    note: group.note,
    status: group.status,
    upload_state: group.uploadState,
    expires_at: group.expiresAt ? group.expiresAt.toISOString() : null,
    has_password: group.passwordHash !== null,
    user_id: group.userId,
    username,
    file_count: items.length,
    total_bytes: group.uploadState === 'complete' ? Number(group.totalBytes) : Number(group.reservedBytes),
    download_count: Number(group.downloadCount),
    max_downloads: group.maxDownloads,
    created_at: group.createdAt.toISOString(),
    url: `/f/${group.id}`,
    items: items.map((it) => ({
      relative_path: it.relativePath,
      size: Number(it.size),
      content_type: it.contentType,
      url: shareItemUrl(group.id, it.relativePath),
      download_count: Number(it.downloadCount),
    })),
  };
}
