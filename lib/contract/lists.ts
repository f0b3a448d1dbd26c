import { z } from 'zod';

/** API.md "Lists page": a page holds 50 entries unless asked, and never more than 200. */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

/** `?limit=&cursor=&q=` of every list; a larger limit is served as the largest page. */
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit is a whole number of entries' })
    .int('limit is a whole number of entries')
    .min(1, 'limit is at least 1')
    .default(LIST_DEFAULT_LIMIT)
    .transform((n) => Math.min(n, LIST_MAX_LIMIT))
    .describe(`Entries per page: default ${LIST_DEFAULT_LIMIT}, at most ${LIST_MAX_LIMIT}`),
  cursor: z.string().min(1).max(512).optional().describe("The last answer's next_cursor (opaque)"),
  q: z.string().max(200, 'q has at most 200 characters').optional().describe('Only entries whose name, note or slug contains this (case-insensitive)'),
});

export type ListQuery = z.infer<typeof listQuerySchema>;
