import { z } from 'zod';

/** GET /api/oembed's query (oEmbed 1.0 §2.2): the page's URL and the format; the sizes are accepted and ignored. */
export const oembedQuerySchema = z.object({
  url: z.string().min(1).max(2048),
  format: z.enum(['json']).optional(),
  maxwidth: z.string().max(16).optional(),
  maxheight: z.string().max(16).optional(),
});
export type OembedQuery = z.infer<typeof oembedQuerySchema>;
