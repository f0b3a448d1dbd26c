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
