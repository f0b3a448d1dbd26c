import 'server-only';
import { updateUser } from '@/db/queries/users';
import type { UserRow } from '@/db/schema';
import type { OidcSettings } from '../../env';
import type { Runtime } from '../../runtime';

/** What the provider said of the person: the ID token's claims, with its userinfo's. */
export type ProviderClaims = Record<string, unknown> & { iss: string; sub: string };

/** Whether the provider puts the person in OIDC_ADMIN_GROUP (the `groups` claim: a list of names). */
export function inAdminGroup(settings: OidcSettings, claims: ProviderClaims): boolean {
  const groups = claims.groups;
  return settings.adminGroup !== undefined && Array.isArray(groups) && groups.some((g) => g === settings.adminGroup);
}

/**
 * With OIDC_ADMIN_GROUP set, each sign-in makes the account's role what the group says: in it,
 * admin; not (or no longer) in it, member. Without the setting roles are the administrator's.
 */
export async function syncAdminRole(rt: Runtime, settings: OidcSettings, user: UserRow, claims: ProviderClaims): Promise<UserRow> {
  if (settings.adminGroup === undefined) return user;
  const role = inAdminGroup(settings, claims) ? 'admin' : 'member';
  if (user.role === role) return user;
  return (await updateUser(rt.db, user.id, { role })) ?? user;
}
