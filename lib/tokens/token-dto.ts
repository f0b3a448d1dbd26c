import 'server-only';
import type { AccessTokenRow } from '@/db/schema';
import type { z } from 'zod';
import type { accessTokenSchema } from '../contract/responses';

export type AccessTokenDto = z.output<typeof accessTokenSchema>;

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
