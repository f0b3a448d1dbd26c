/**
 * The browser's side of passkeys (issue 42, item 2): options from POST /api/auth/passkeys/options,
 * the WebAuthn ceremony through @simplewebauthn/browser, and the answer as the contract takes it.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type { BodyOf } from '../contract/operations';
import { callOperation } from './api';

/** The credential as POST /api/auth/passkeys and the sign-in routes take it. */
export type PasskeyResponse = BodyOf<'passkeyLogin'>['response'];

export const passkeysSupported = (): boolean => typeof window !== 'undefined' && browserSupportsWebAuthn();

/** A new passkey's answer (the member is signed in): register options, then the authenticator. */
export async function createPasskey(): Promise<PasskeyResponse> {
  const optionsJSON = await callOperation('passkeyOptions', { body: { purpose: 'register' } });
  const r = await startRegistration({ optionsJSON: optionsJSON as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  return r as unknown as PasskeyResponse;
}

/**
 * An assertion: `login` (any passkey of this site), or `second_factor` for a sign-in's
 * challenge (without one: the signed-in member confirming it is them).
 */
export async function assertPasskey(purpose: 'login' | 'second_factor', challenge?: string): Promise<PasskeyResponse> {
  const optionsJSON = await callOperation('passkeyOptions', { body: challenge === undefined ? { purpose } : { purpose, challenge } });
  const r = await startAuthentication({ optionsJSON: optionsJSON as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  return r as unknown as PasskeyResponse;
}

/** A message for a ceremony the person cancelled or the browser refused; null for other errors. */
export function describePasskeyError(err: unknown): string | null {
  if (err instanceof WebAuthnError || (err instanceof Error && err.name === 'NotAllowedError')) {
    return 'The passkey request was cancelled or timed out.';
  }
  return null;
}
