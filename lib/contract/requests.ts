import { z } from 'zod';
import { initSchema, MAX_SHARE_BYTES, MAX_SHARE_FILES } from './shares';

/**
 * File requests (API.md "File requests"): links /r/<id> through which anyone uploads files to
 * the request's owner. `null` on PATCH clears a limit.
 */
export const requestIdSchema = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'not a request id');

const isoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 time such as 2026-12-01T10:00:00Z' });
const futureTime = isoTime.refine((t) => Date.parse(t) > Date.now(), 'that time has passed: choose a later one');
const count = (name: string, max: number) =>
  z
    .number({ message: `${name} is a whole number, or null for no limit` })
    .int(`${name} is a whole number, or null for no limit`)
    .min(1, `${name} is at least 1 (or null for no limit)`)
    .max(max, `${name} is at most ${max.toLocaleString('en-US')}`);

/** One entry of allowed_types: a MIME type (`video/*`, `application/pdf`) or an extension (`.pdf`). */
export const allowedTypeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\.[a-z0-9][a-z0-9._+-]{0,30}|[a-z0-9][a-z0-9.+-]{0,62}\/(\*|[a-z0-9][a-z0-9.+-]{0,126}))$/, 'an allowed type is a MIME type (video/*, application/pdf) or an extension (.pdf)');

const fields = {
  note: z.string().max(2000, 'A note has at most 2,000 characters'),
  expires_at: futureTime.nullable(),
  password: z.string().max(256, 'A password has at most 256 characters').nullable(),
  max_files: count('max_files', MAX_SHARE_FILES).nullable(),
  max_bytes: count('max_bytes', MAX_SHARE_BYTES).nullable(),
  max_uploads: count('max_uploads', 1_000_000).nullable(),
  require_name: z.boolean(),
  allowed_types: z.array(allowedTypeSchema).min(1, 'allowed_types lists at least one type (or is null for any)').max(50, 'allowed_types has at most 50 entries').nullable(),
};

export const createRequestSchema = z.object({
  note: fields.note.optional(),
  expires_at: fields.expires_at.optional(),
  password: fields.password.optional(),
  max_files: fields.max_files.optional(),
  max_bytes: fields.max_bytes.optional(),
  max_uploads: fields.max_uploads.optional(),
  require_name: fields.require_name.optional(),
  allowed_types: fields.allowed_types.optional(),
});

export const updateRequestSchema = createRequestSchema.extend({ status: z.enum(['open', 'closed']).optional() });

/** A guest's upload: who sends, the request's password when it has one, and the files (as share init). */
export const requestUploadSchema = z.object({
  name: z.string().trim().max(200, 'A name has at most 200 characters').optional(),
  email: z.union([z.literal(''), z.email({ message: 'That e-mail address does not look right' }).max(254)]).optional(),
  message: z.string().max(5000, 'A message has at most 5,000 characters').optional(),
  password: z.string().max(256).optional(),
  /** The htmls_request_unlock_<id> cookie's value, which the /r/<id> page hands its script (the cookie's Path keeps it off /api). */
  unlock: z.string().max(200).optional(),
  files: initSchema.shape.files,
});

export type CreateRequestInput = z.infer<typeof createRequestSchema>;
export type UpdateRequestInput = z.infer<typeof updateRequestSchema>;
export type RequestUploadInput = z.infer<typeof requestUploadSchema>;

/** Prefix of an upload token (a Bearer for one guest upload's protocol calls, nothing else). */
export const UPLOAD_TOKEN_PREFIX = 'htmls_upl_';
