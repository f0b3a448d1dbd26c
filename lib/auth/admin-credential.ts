import 'server-only';
import { getSetting, setSetting, SETTING } from '@/db/queries/settings';
import { getServerSecret, type Runtime } from '../runtime';
import { hmac, randomToken, safeEqual, sha256Hex } from './crypto';

/**
 * The hash stored by an online token change wins; without one, the SHA-256 of ADMIN_TOKEN
 * is the emergency credential. Null when neither exists.
 */
export async function getAdminCredentialHash(rt: Runtime): Promise<string | null> {
  const stored = await getSetting(rt.db, SETTING.adminTokenHash);
  if (stored) return stored;
  return rt.env.adminToken ? sha256Hex(rt.env.adminToken) : null;
}

export async function isAdminToken(rt: Runtime, token: string): Promise<boolean> {
  const current = await getAdminCredentialHash(rt);
  // Compare even without a credential, so timing does not tell whether one is configured.
  const ok = safeEqual(sha256Hex(token), current ?? '-');
  return ok && current !== null;
}

/**
 * A short tag of the current admin credential under the server secret: admin sessions and
 * guest unlock cookies carry it, so changing the Admin Token ends them all.
 */
export async function adminCredentialTag(rt: Runtime): Promise<string> {
  const current = (await getAdminCredentialHash(rt)) ?? 'none';
  return hmac(await getServerSecret(rt), 'admin-credential', current).slice(0, 32);
}

export async function storeAdminToken(rt: Runtime, token: string): Promise<void> {
  await setSetting(rt.db, SETTING.adminTokenHash, sha256Hex(token));
}

/** First start without any credential: make one, keep only its hash, show it once. */
export async function bootstrapAdminToken(rt: Runtime): Promise<string | null> {
  if (await getAdminCredentialHash(rt)) return null;
  const token = randomToken(24);
  await storeAdminToken(rt, token);
  return token;
}
