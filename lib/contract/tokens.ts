import { z } from 'zod';
import { isScope } from './scopes';

const isoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 time such as 2026-12-01T10:00:00Z' });

export const createTokenSchema = z.object({
  name: z.string().trim().min(1, 'Give the token a name').max(100, 'A token name has at most 100 characters'),
  scopes: z
    .array(z.string().refine(isScope, 'not a scope: use shares:read, shares:write, requests:read, requests:write, account:read, sites:deploy, sites:deploy:<slug> or admin'))
    .min(1, 'Choose at least one scope')
    .max(50)
    .refine((s) => new Set(s).size === s.length, 'a scope is named twice'),
  expires_at: isoTime.nullable().optional(),
});

/** `?limit=&cursor=&q=` of a paged list (API.md "Lists page"). */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
});

export type CreateTokenInput = z.infer<typeof createTokenSchema>;
export type PageQuery = z.infer<typeof pageQuerySchema>;
