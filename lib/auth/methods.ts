import 'server-only';
import type { AuthMethods } from '../contract/dtos';
import type { Runtime } from '../runtime';

/**
 * GET /api/auth/methods: what /files offers — the password form (not under OIDC_ONLY), the
 * single sign-on button, the passkey button (beside the password form), and whom REQUIRE_2FA asks
 * for a second factor.
 */
export function signInMethods(rt: Runtime): AuthMethods {
  const oidc = rt.env.oidc;
  return { password: !oidc?.only, oidc: oidc ? { name: oidc.name } : null, passkeys: !oidc?.only, require_2fa: rt.env.require2fa };
}
