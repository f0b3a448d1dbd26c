import 'server-only';
import type { Runtime } from '../runtime';

/** GET /api/auth/methods. Single sign-on and passkeys report themselves here as they land (issue 42). */
export function signInMethods(rt: Runtime) {
  return { password: true, oidc: null, passkeys: false, require_2fa: rt.env.require2fa };
}
