import 'server-only';
import { deleteUserIdentity, findUserIdentity } from '@/db/queries/oidc-identities';
import { countPasskeys } from '@/db/queries/passkeys';
import type { UserRow } from '@/db/schema';
import type { OidcIdentity } from '../../contract/dtos';
import type { OidcSettings } from '../../env';
import { AppError, notFound } from '../../errors';
import type { Runtime } from '../../runtime';
import { providerConfig } from './provider';

/** Settings' view of the member's link to the configured provider. */
export async function getLinkedIdentity(rt: Runtime, user: UserRow): Promise<OidcIdentity> {
  const settings = rt.env.oidc;
  const row = settings ? await findUserIdentity(rt.db, user.id, await issuerOf(settings)) : null;
  return {
    provider: settings ? { name: settings.name } : null,
    identity: row ? { email: row.email, created_at: row.createdAt.toISOString(), last_login_at: row.lastLoginAt?.toISOString() ?? null } : null,
    has_password: user.passwordHash !== '',
  };
}

/**
 * Unlinks the member's identity of the configured provider. An account made by single sign-on
 * has no password: unlinking it would leave no way in, so that is a 409 — unless it has a
 * passkey, which is a way in too.
 */
export async function unlinkIdentity(rt: Runtime, user: UserRow): Promise<void> {
  const settings = rt.env.oidc;
  if (!settings) throw notFound('Single sign-on is not set up');
  if (user.passwordHash === '' && (await countPasskeys(rt.db, user.id)) === 0) throw new AppError('conflict', 'Set a password (or add a passkey) before unlinking: it is the only way into this account');
  if (!(await deleteUserIdentity(rt.db, user.id, await issuerOf(settings)))) throw notFound('No identity is linked');
}

/**
 * The issuer identities are stored under: the ID tokens' `iss`, which is the discovery
 * document's (OIDC_ISSUER may differ from it by a trailing slash). The setting itself while the
 * provider does not answer.
 */
const issuerOf = (settings: OidcSettings): Promise<string> =>
  providerConfig(settings).then(
    (c) => c.serverMetadata().issuer,
    () => settings.issuer,
  );
