import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (API.md "Events"): `v1,<base64 HMAC-SHA256>` of
 * "<id>.<timestamp>.<body>" under the secret's base64-decoded bytes (the part after `whsec_`).
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** A new signing secret: 32 random bytes, as Standard Webhooks libraries expect them. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
