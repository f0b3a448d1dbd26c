import 'server-only';
import type { RequestDto } from '../contract/dtos';
import type { RequestWithOwner } from '@/db/queries/requests';

// The response types live in the contract (clients import them from there).
export type { RequestDto } from '../contract/dtos';

/** The one shape a file request leaves the server in: never its password hash. */
export function toRequestDto({ request: r, username }: RequestWithOwner): RequestDto {
  return {
    id: r.id,
    note: r.note,
    status: r.status,
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
    has_password: r.passwordHash !== null,
    user_id: r.userId,
    username,
    max_files: r.maxFiles,
    max_bytes: r.maxBytes === null ? null : Number(r.maxBytes),
    max_uploads: r.maxUploads,
    require_name: r.requireName,
    allowed_types: r.allowedTypes,
    upload_count: r.uploadCount,
    received_bytes: Number(r.receivedBytes),
    created_at: r.createdAt.toISOString(),
    url: `/r/${r.id}`,
  };
}
