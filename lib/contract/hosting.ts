import { z } from 'zod';

export const fileStatusSchema = z.object({
  id: z.uuid({ message: 'id must be a file id' }),
  status: z.enum(['online', 'offline']),
});

export const updateProjectSchema = z.object({
  note: z.string().max(2000).optional(),
  password: z.string().max(256).nullable().optional(),
  /** Unknown paths without an extension serve the index file (single-page apps). */
  spa: z.boolean().optional(),
  /** Serve paths with dot-segments (`.env`, `.git/`); `.well-known/` always is. */
  allow_dotfiles: z.boolean().optional(),
  /** Custom domains: host names that serve the project at their root ([] clears). */
  domains: z.array(z.string().max(253)).max(20).optional(),
});

/** GET /api/tls/ask's query: the host name a TLS proxy is about to get a certificate for (missing: 404). */
export const tlsAskQuerySchema = z.object({ domain: z.string().max(300).optional() });

export const uuidParam = z.uuid();
