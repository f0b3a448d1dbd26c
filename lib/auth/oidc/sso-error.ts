/**
 * Why a single sign-on did not sign anyone in: the code of `/files?sso_error=<code>`, where the
 * callback sends the browser (a redirect has no JSON body to carry the contract's error).
 * Safe for the browser bundle: /files turns each code into a sentence.
 */
export const SSO_ERROR_CODES = [
  'not_configured',
  'invalid_return_to',
  'unauthenticated',
  'state_mismatch',
  'provider_error',
  'provider_unavailable',
  'invalid_response',
  'not_linked',
  'identity_in_use',
  'already_linked',
  'account_disabled',
  'rate_limited',
  'internal_error',
] as const;

export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

export const isSsoErrorCode = (v: string): v is SsoErrorCode => (SSO_ERROR_CODES as readonly string[]).includes(v);

export class SsoError extends Error {
  constructor(
    readonly code: SsoErrorCode,
    message: string,
  ) {
    super(message);
  }
}
