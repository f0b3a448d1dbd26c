import 'server-only';
import type { UserDto } from '../contract/dtos';
import type { UserRow } from '@/db/schema';
import { isLocale } from '../i18n/locales';

// The response types live in the contract (clients import them from there).
export type { UserDto } from '../contract/dtos';

/** The only shape a user leaves the server in: never the password hash. */
export function toUserDto(u: UserRow): UserDto {
  return {
    id: u.id,
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    email_verified: u.emailVerified,
    phone: u.phone,
    role: u.role,
    status: u.status,
    quota_bytes: Number(u.quotaBytes),
    used_bytes: Number(u.usedBytes),
    notify: { downloads: u.notifyDownloads, uploads: u.notifyUploads, expiring: u.notifyExpiring },
    two_factor: u.totpEnabled,
    // A tag no longer supported reads as none (the browser's) rather than one the contract lacks.
    locale: isLocale(u.locale) ? u.locale : null,
    created_at: u.createdAt.toISOString(),
  };
}
