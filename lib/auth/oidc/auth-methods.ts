import 'server-only';
import type { AuthMethods } from '../../contract/dtos';
import type { Runtime } from '../../runtime';

/**
 * What /files offers. Passkeys and the second factor are not built yet (issue 42, items 2 and
 * 3): `passkeys: false`, `require_2fa: "off"` until they are.
 */
export function authMethods(rt: Runtime): AuthMethods {
  const oidc = rt.env.oidc;
  return {
    password: !oidc?.only,
    oidc: oidc ? { name: oidc.name } : null,
    passkeys: false,
    require_2fa: 'off',
  };
}
