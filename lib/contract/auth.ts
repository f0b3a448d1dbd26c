import { z } from 'zod';

export const loginSchema = z.object({
  token: z.string().max(1024).optional(),
  username: z.string().max(1024).optional(),
  password: z.string().max(4096).optional(),
});

export const changeTokenSchema = z.object({ token: z.string().max(1024) });

/** Issue 42: the second factor and sessions. A passkey `response` joins these once passkeys land. */
export const secondFactorSchema = z.object({
  challenge: z.string().max(200),
  code: z.string().max(20).optional(),
  recovery_code: z.string().max(40).optional(),
});

/** From a signed-in session, no body; from a sign-in that must enrol, its `challenge`. */
export const totpSetupSchema = z.object({ challenge: z.string().max(200).optional() });
export const totpEnableSchema = z.object({ code: z.string().max(20), challenge: z.string().max(200).optional() });
export const totpDisableSchema = z.object({ password: z.string().max(4096) });
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
