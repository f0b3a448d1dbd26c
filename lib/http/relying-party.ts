import 'server-only';
import type { RelyingParty } from '../auth/passkeys';
import type { Runtime } from '../runtime';
import { ownOrigin } from './origin';

/** The passkeys' relying party for a request: this service's own origin (PUBLIC_URL, else the request's) and its host name as the RP ID. */
export function relyingParty(rt: Runtime, req: Request): RelyingParty {
  const origin = ownOrigin(rt.env, req.headers, req.url);
  return { origin, rpId: new URL(origin).hostname };
}
