import 'server-only';
import * as client from 'openid-client';
import type { OidcSettings } from '../../env';
import type { Runtime } from '../../runtime';
import { enforceRateLimit } from '../rate-limit';
import { SsoError } from './sso-error';

/** How long a provider's discovery document (endpoints, keys' URL) is kept. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const DISCOVERY_TIMEOUT_S = 10;

const cache: { entry?: { key: string; at: number; config: Promise<client.Configuration> } } = {};

/**
 * The provider's configuration from its discovery document, kept an hour (a failure is not
 * kept: the next sign-in asks again). openid-client pins the issuer: a document whose `issuer`
 * is not exactly OIDC_ISSUER is refused, and every ID token must name that issuer and this
 * client as its audience.
 */
export function providerConfig(settings: OidcSettings, nowMs = Date.now()): Promise<client.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}`;
  const hit = cache.entry;
  if (hit && hit.key === key && nowMs - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const config = discover(settings).catch((err: unknown) => {
    if (cache.entry?.config === config) cache.entry = undefined;
    console.error('OIDC discovery failed:', err);
    throw new SsoError('provider_unavailable', 'The sign-in provider did not answer');
  });
  cache.entry = { key, at: nowMs, config };
  return config;
}

async function discover(s: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(s.issuer);
  return client.discovery(
    issuer,
    s.clientId,
    undefined,
    s.clientSecret ? client.ClientSecretBasic(s.clientSecret) : client.None(),
    {
      timeout: DISCOVERY_TIMEOUT_S,
      // A provider on plain HTTP (a LAN, or the tests' own) is the administrator's choice of issuer URL.
      execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
    },
  );
}

/** Drops the cached discovery (tests that change the provider). */
export function forgetProviderConfig(): void {
  cache.entry = undefined;
}

/**
 * The first step of both single sign-on routes: the provider's settings (an SsoError when none
 * is set up), after the per-address limit of sign-in attempts.
 */
export async function ssoSettings(rt: Runtime, ip: string): Promise<OidcSettings> {
  const settings = rt.env.oidc;
  if (!settings) throw new SsoError('not_configured', 'Single sign-on is not set up');
  await enforceRateLimit(rt, 'sso', ip).catch(() => {
    throw new SsoError('rate_limited', 'Too many sign-in attempts');
  });
  return settings;
}
