import { z } from 'zod';

export const loginSchema = z.object({
  token: z.string().max(1024).optional(),
  username: z.string().max(1024).optional(),
  password: z.string().max(4096).optional(),
});

export const changeTokenSchema = z.object({ token: z.string().max(1024) });

const b64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'base64url');

/**
 * A WebAuthn credential as the browser answers it (`PublicKeyCredential.toJSON()`, what
 * @simplewebauthn/browser returns): a registration (`attestationObject`) or an assertion
 * (`authenticatorData`, `signature`, `userHandle`). Its signature is checked by the server
 * against the challenge it handed out (POST /api/auth/passkeys/options).
 */
export const webauthnResponseSchema = z.object({
  id: b64url(1024),
  rawId: b64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(16384).optional(),
    authenticatorData: b64url(4096).optional(),
    signature: b64url(8192).optional(),
    userHandle: b64url(256).nullish(),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** Issue 42: the second factor and sessions; a passkey `response` passes it too. */
export const secondFactorSchema = z.object({
  challenge: z.string().max(200),
  code: z.string().max(20).optional(),
  recovery_code: z.string().max(40).optional(),
  response: webauthnResponseSchema.optional(),
});

/**
 * POST /api/auth/passkeys/options: `register` (a signed-in member), `login` (anyone: a
 * discoverable credential), `second_factor` (with a sign-in's `challenge`; without one, the
 * signed-in member confirming it is them — to turn TOTP off or remove the last passkey).
 */
export const passkeyOptionsSchema = z.object({
  purpose: z.enum(['register', 'login', 'second_factor']),
  challenge: z.string().max(200).optional(),
});
const passkeyName = z.string().trim().min(1).max(64);
export const registerPasskeySchema = z.object({ name: passkeyName, response: webauthnResponseSchema });
export const passkeyLoginSchema = z.object({ response: webauthnResponseSchema });
export const renamePasskeySchema = z.object({ name: passkeyName });
/** Removing the last passkey needs the current password or a passkey (`second_factor` options without a challenge). */
export const deletePasskeySchema = z.object({ password: z.string().max(4096).optional(), response: webauthnResponseSchema.optional() });

/** From a signed-in session, no body; from a sign-in that must enrol, its `challenge`. */
export const totpSetupSchema = z.object({ challenge: z.string().max(200).optional() });
export const totpEnableSchema = z.object({ code: z.string().max(20), challenge: z.string().max(200).optional() });
export const totpDisableSchema = z
  .object({ password: z.string().max(4096).optional(), response: webauthnResponseSchema.optional() })
  .refine((b) => b.password !== undefined || b.response !== undefined, 'Send the current password or a passkey response');
export const changePasswordSchema = z.object({ current_password: z.string().max(4096), password: z.string().min(8).max(256) });

/** `GET /api/auth/oidc/start`: where to come back to (a page of this site) and whether to link instead of signing in. */
export const oidcStartQuerySchema = z.object({
  return_to: z.string().max(2048).optional().describe('A path (or URL) of this site to return to; default /files'),
  link: z.enum(['0', '1']).optional().describe('1: link the identity to the member signed in here (a navigation from this site)'),
});

/** The provider's answer (RFC 6749 §4.1.2); the handler reads it from the URL as openid-client needs it. */
export const oidcCallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/** `htmls login --sso` (issue 42): the CLI polls with its secret; the browser approves with the code it shows. */
export const cliHandoffPollSchema = z.object({ device_code: z.string().min(1).max(200) });
export const cliHandoffApproveSchema = z.object({ user_code: z.string().min(1).max(32).describe('The code the terminal shows, e.g. BCDF-GHJK') });
