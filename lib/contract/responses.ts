import { z } from 'zod';

/** Response shapes of API.md, for the OpenAPI document (the routes build them in lib/*-dto.ts). */
const time = z.string().describe('ISO 8601 time in UTC');
export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  display_name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(['member', 'admin']),
  status: z.enum(['active', 'disabled']),
  quota_bytes: z.number().int(),
  used_bytes: z.number().int(),
  created_at: time,
});
export const fileSchema = z.object({
  id: z.string(),
  slug: z.string(),
  path: z.string(),
  size: z.number().int(),
  content_type: z.string(),
  status: z.enum(['online', 'offline']),
  created_at: time,
});
export const projectSchema = z.object({
  slug: z.string(),
  note: z.string(),
  has_password: z.boolean(),
  file_count: z.number().int(),
  total_bytes: z.number().int(),
  created_at: time,
  url: z.string(),
  files: z.array(fileSchema),
});
export const shareItemSchema = z.object({ relative_path: z.string(), size: z.number().int(), content_type: z.string(), url: z.string() });
export const shareSchema = z.object({
  id: z.string(),
  note: z.string(),
  status: z.enum(['online', 'offline']),
  upload_state: z.enum(['pending', 'complete']),
  expires_at: time.nullable(),
  has_password: z.boolean(),
  user_id: z.string().nullable(),
  username: z.string().nullable(),
  file_count: z.number().int(),
  total_bytes: z.number().int(),
  created_at: time,
  url: z.string(),
  items: z.array(shareItemSchema),
});
export const errorSchema = z.object({
  error: z.string().describe('A sentence for a person'),
  code: z.string().describe('snake_case error code'),
  violations: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe('concepts: every schema violation'),
});
export const conceptSchema = z.record(z.string(), z.unknown()).describe('A Concept 1.0 document (see /schemas/concept-1.0.json)');
const initFile = z.object({ clientPath: z.string(), relativePath: z.string(), uploadId: z.string(), storageKey: z.string(), partCount: z.number().int() });
export const initResultSchema = z.object({ groupId: z.string(), mode: z.enum(['direct', 'proxy']), partSize: z.number().int(), files: z.array(initFile) });
export const capabilitiesSchema = z.object({
  mode: z.enum(['direct', 'proxy']),
  partSize: z.number().int(),
  parallel: z.number().int(),
  maxRetries: z.number().int(),
  maxFiles: z.number().int(),
  maxTotalBytes: z.number().int(),
});
export const uploadStatusSchema = z.object({
  groupId: z.string(),
  mode: z.enum(['direct', 'proxy']),
  partSize: z.number().int(),
  files: z.array(
    initFile.extend({
      size: z.number().int(),
      completed: z.boolean(),
      parts: z.array(z.object({ partNumber: z.number().int(), size: z.number().int(), etag: z.string() })),
    }),
  ),
});
export const loginResultSchema = z.object({ role: z.enum(['admin', 'member']), user: userSchema.nullable(), token: z.string(), expires_at: time });
export const okSchema = z.object({ ok: z.literal(true) });
