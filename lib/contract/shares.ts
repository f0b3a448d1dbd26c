import { z } from 'zod';

export const MAX_SHARE_FILES = 500;
/** 50 GB (binary). */
export const MAX_SHARE_BYTES = 50 * 1024 ** 3;
export const DIRECT_PART_SIZE = 64 * 1024 * 1024;
/** The default (and largest) part through the server; PROXY_PART_SIZE may lower it (lib/env.ts). */
export const PROXY_PART_SIZE = 48 * 1024 * 1024;
/** S3's smallest multipart part (all but the last): the least a part of ours may be. */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
export const MAX_PART_RETRIES = 4;

const isoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 time such as 2026-12-01T10:00:00Z' });
/**
 * An expiry a share can be given: a link that is already expired when it is made or changed is a
 * mistake (the upload would go ahead and hand out a dead link), so a past time is refused.
 */
const futureTime = isoTime.refine((t) => Date.parse(t) > Date.now(), 'that time has passed: choose a later one (a share cannot start expired)');
const note = z.string().max(2000, 'A note has at most 2,000 characters');
const password = z.string().max(256, 'A password has at most 256 characters');
/** Completed downloads after which guests get 410 download_limit; null: no limit. */
export const MAX_DOWNLOADS_LIMIT = 1_000_000_000;
const maxDownloads = z
  .number({ message: 'max_downloads is a whole number of downloads, or null for no limit' })
  .int('max_downloads is a whole number of downloads, or null for no limit')
  .min(1, 'max_downloads is at least 1 (or null for no limit)')
  .max(MAX_DOWNLOADS_LIMIT, 'max_downloads is at most 1,000,000,000');
export const shareIdSchema = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'not a share id');
const uploadId = z.string().min(1).max(1024);
const storageKey = z.string().min(1).max(1024);
const partNumber = z.number().int().min(1).max(10000);

export const initSchema = z
  .object({
    /** Adds the files to this published share of the caller instead of making a new one. */
    share_id: shareIdSchema.optional(),
    note: note.optional(),
    expires_at: futureTime.nullable().optional(),
    password: password.nullable().optional(),
    max_downloads: maxDownloads.nullable().optional(),
    files: z
      .array(
        z.object({
          clientPath: z.string().min(1, 'clientPath is empty').max(4096),
          size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
          contentType: z.string().max(255).optional(),
        }),
      )
      .min(1, 'Send at least one file')
      // The 500-file limit answers too_many_files; this bound only keeps bodies sane.
      .max(10_000),
  })
  .refine(
    (b) => !b.share_id || (b.note === undefined && b.expires_at === undefined && b.password === undefined && b.max_downloads === undefined),
    'Adding files to a share (share_id) takes only files: change its note, expiry, password or download limit with PATCH /api/shares/:id',
  );

/** DELETE /api/shares/:id/items?path=: the item's relative path, as the share lists it. */
/** The largest poster frame a browser may send (its JPEG, before base64). */
export const MAX_BROWSER_POSTER_BYTES = 1536 * 1024;

export const sharePosterSchema = z.object({
  path: z.string().min(1, 'Give the path of the video').max(4096).describe("The video's relative_path in the share"),
  image: z
    .string()
    .min(1)
    .max(Math.ceil(MAX_BROWSER_POSTER_BYTES / 3) * 4, 'The frame is larger than 1.5 MB')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'image must be base64')
    .describe('The frame as a JPEG, PNG or WebP, base64 (at most 1.5 MB decoded)'),
  duration_ms: z.number().int().min(0).max(2_147_483_647).nullable().optional().describe("The video's duration as the browser read it"),
});

export const shareItemQuerySchema = z.object({ path: z.string().min(1, 'Give the path of the file to remove').max(4096) });

export const partUrlSchema = z.object({ groupId: shareIdSchema, uploadId, storageKey, partNumber });

export const chunkQuerySchema = z.object({
  groupId: shareIdSchema,
  uploadId,
  storageKey,
  partNumber: z.coerce.number().int().min(1).max(10000),
});

export const completeSchema = z.object({
  groupId: shareIdSchema,
  files: z
    .array(
      z.object({
        uploadId,
        storageKey,
        parts: z.array(z.object({ partNumber, etag: z.string().max(256).optional() })).max(10000),
      }),
    )
    .max(10_000),
});

export const abortSchema = z.object({ groupId: shareIdSchema });
export const resumeSchema = z.object({ groupId: shareIdSchema });

export const updateShareSchema = z.object({
  note: note.optional(),
  expires_at: futureTime.nullable().optional(),
  password: password.nullable().optional(),
  status: z.enum(['online', 'offline']).optional(),
  max_downloads: maxDownloads.nullable().optional(),
});

/**
 * The share settings of a one-request upload (PUT /api/shares/file/<name>: the query; POST
 * /api/shares/files: form fields), as strings: `max_downloads` a whole number, empty = none.
 */
export const oneRequestQuerySchema = z.object({
  note: note.optional(),
  expires_at: isoTime.optional(),
  password: password.optional(),
  max_downloads: z.coerce.number().pipe(maxDownloads).optional(),
});

export type OneRequestOptions = z.infer<typeof oneRequestQuerySchema>;
export type InitInput = z.infer<typeof initSchema>;
export type CompleteInput = z.infer<typeof completeSchema>;
export type UpdateShareInput = z.infer<typeof updateShareSchema>;
