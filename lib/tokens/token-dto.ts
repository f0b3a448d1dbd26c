import 'server-only';
import type { AccessTokenDto } from '../contract/dtos';
import type { AccessTokenRow } from '@/db/schema';

// The response types live in the contract (clients import them from there).
export type { AccessTokenDto } from '../contract/dtos';

export const toAccessTokenDto = (t: AccessTokenRow): AccessTokenDto => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  scopes: t.scopes,
  expires_at: t.expiresAt?.toISOString() ?? null,
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
  last_used_ip: t.lastUsedIp,
  created_at: t.createdAt.toISOString(),
});
