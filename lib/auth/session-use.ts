import 'server-only';
import { touchSession } from '@/db/queries/sessions';
import { perRuntime, type Runtime } from '../runtime';
import { networkOf } from './network';
import type { Principal } from './principal';

const EVERY_MS = 60 * 1000;

/**
 * Notes that a session was used (Settings → Sessions' "last used" and network): at most one
 * database write a minute per session and process, or sooner when its network changes. Access
 * tokens keep their own (lib/auth/access-tokens.ts).
 */
/** The last use written per session (by its token's hash). */
const writtenOf = perRuntime(() => new Map<string, { at: number; network: string }>());

export async function noteSessionUse(rt: Runtime, principal: Principal | null, ip: string): Promise<void> {
  if (!principal || principal.grant || !principal.tokenHash) return;
  if (principal.kind === 'admin' && principal.via !== 'session') return;
  const network = networkOf(ip);
  const now = Date.now();
  const written = writtenOf(rt);
  const last = written.get(principal.tokenHash);
  if (last && now - last.at < EVERY_MS && last.network === network) return;
  written.set(principal.tokenHash, { at: now, network });
  if (written.size > 10_000) written.delete(written.keys().next().value!);
  await touchSession(rt.db, principal.tokenHash, network);
}
