import 'server-only';
import { insertIdentity } from '@/db/queries/oidc-identities';
import { insertUser } from '@/db/queries/users';
import type { UserRow } from '@/db/schema';
import { randomString } from '../auth/crypto';
import type { ProviderClaims } from '../auth/oidc/accounts';
import { SsoError } from '../auth/oidc/sso-error';
import type { Runtime } from '../runtime';
import { getDefaultQuota } from './default-quota';

/**
 * An account made by a first sign-in (OIDC_SIGNUP=on), linked to the identity: a member with the default quota and no
 * password (an empty hash matches none: lib/auth/passwords.ts), named after the provider's
 * `preferred_username` or e-mail where that name is free. The e-mail is kept as confirmed only
 * when the provider says it verified it; it never links anything.
 */
export async function createSsoMember(rt: Runtime, claims: ProviderClaims): Promise<UserRow> {
  const email = typeof claims.email === 'string' && claims.email.length <= 254 ? claims.email : '';
  const base = usernameFrom(claims);
  const quotaBytes = await getDefaultQuota(rt);
  for (let attempt = 0; attempt < 8; attempt++) {
    const username = attempt === 0 && base.length >= 3 ? base : `${base.slice(0, 25) || 'user'}-${randomString(6)}`;
    // The account and its identity together: a second callback racing this one for the same
    // identity leaves no account without its link.
    const row = await rt.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        username,
        passwordHash: '',
        displayName: typeof claims.name === 'string' ? claims.name.slice(0, 200) : '',
        email,
        emailVerified: email !== '' && claims.email_verified === true,
        role: 'member',
        quotaBytes,
      });
      if (!user) return null;
      if (!(await insertIdentity(tx, { userId: user.id, issuer: claims.iss, subject: claims.sub, email }))) {
        throw new SsoError('identity_in_use', 'This identity was just linked to another account');
      }
      return user;
    });
    if (row) return row;
  }
  throw new Error('no free username for a new single sign-on account');
}

/** The provider's name for the person, cut to the service's username rules (`a-z 0-9 . _ -`, 3–32). */
function usernameFrom(claims: ProviderClaims): string {
  const raw = typeof claims.preferred_username === 'string' ? claims.preferred_username : typeof claims.email === 'string' ? claims.email.split('@')[0] : '';
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 32);
}
