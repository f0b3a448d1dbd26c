import { z } from 'zod';
import { LOCALES } from '../i18n/locales';

/** 3 to 32 of a-z 0-9 . _ - ; compared case-insensitively (stored lower-cased). */
export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'A username needs at least 3 characters')
  .max(32, 'A username has at most 32 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'A username may use only letters, digits, ".", "_" and "-"')
  .transform((s) => s.toLowerCase());

export const passwordSchema = z
  .string()
  .min(8, 'A password needs at least 8 characters')
  .max(256, 'A password has at most 256 characters');

const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

export const displayNameSchema = z.string().trim().max(100, 'A name has at most 100 characters').refine(noControl, 'A name cannot contain control characters');
export const emailSchema = z
  .string()
  .trim()
  .max(254, 'An email address has at most 254 characters')
  .refine((s) => s === '' || /^[^\s@]+@[^\s@]+$/.test(s), 'That is not an email address');
export const phoneSchema = z
  .string()
  .trim()
  .max(32, 'A phone number has at most 32 characters')
  .refine((s) => s === '' || /^[0-9+() .\-]+$/.test(s), 'A phone number may use digits, spaces and + ( ) . -');

/** Up to 1 PB: larger numbers are typos, and must stay exact in a JS number. */
export const quotaSchema = z.number().int('A quota is a whole number of bytes').min(0).max(2 ** 50);

export const registerSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  display_name: displayNameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneSchema.optional(),
});

export const profileSchema = z.object({
  display_name: displayNameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneSchema.optional(),
  notify: z.object({ downloads: z.boolean().optional(), uploads: z.boolean().optional(), expiring: z.boolean().optional() }).optional(),
});

/**
 * A member's own profile: changing the e-mail (where password resets and notifications would go)
 * needs the current password again (issue 42, item 3), as the password change does.
 */
export const ownProfileSchema = profileSchema.extend({
  locale: z
    .enum(LOCALES, { error: `A language is one of ${LOCALES.join(', ')}, or null for the browser’s` })
    .nullable()
    .optional()
    .describe('The member’s language for their pages and mails (issue 40): one of the supported tags, or null for the browser’s'),
  current_password: z.string().max(4096).optional().describe('The current password; required when `email` changes (an account with no password: a single sign-on in the last 10 minutes instead)'),
});

export const createUserSchema = registerSchema.extend({
  role: z.enum(['member', 'admin']).optional(),
  quota_bytes: quotaSchema.optional(),
});

export const updateUserSchema = profileSchema.extend({
  quota_bytes: quotaSchema.optional(),
  status: z.enum(['active', 'disabled']).optional(),
  role: z.enum(['member', 'admin']).optional(),
  password: passwordSchema.optional(),
});

/** The token of a confirmation link (lib/users/email-confirmation.ts). */
export const confirmEmailSchema = z.object({ token: z.string().min(1).max(200) });

export const settingsSchema = z.object({ default_quota_bytes: quotaSchema });

export type RegisterInput = z.infer<typeof registerSchema>;
export type ProfileInput = z.infer<typeof profileSchema>;
export type OwnProfileInput = z.infer<typeof ownProfileSchema>;
export type CreateUserInput = z.infer<typeof createUserSchema>;
export type UpdateUserInput = z.infer<typeof updateUserSchema>;
