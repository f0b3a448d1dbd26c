import 'server-only';
import type { Readable } from 'node:stream';
import { operations } from '../../contract/operations';
import { MAX_SHARE_FILES, oneRequestQuerySchema } from '../../contract/shares';
import { AppError, badRequest, notFound } from '../../errors';
import { jsonReply, type FastReply, type FastRequest } from '../fast';
import { ownOrigin } from '../origin';
import type { Env } from '../../env';
import { fastRoute } from '../fast-route';
import { parseWith } from '../route';
import { readMultipart } from '../../hosting/read-multipart';
import { isStorageNotFound } from '../../storage/types';
import { OneRequestShare } from '../../shares/one-request-upload';
import type { ShareDto } from '../../shares/share-dto';
import { StorageIncompleteBodyError } from '../../storage/errors';

/**
 * The one-request share uploads, answered by server.ts before Next like the chunk upload (a
 * Next handler moves bytes at a third of the speed): no route files.
 */

// PUT /api/shares/file/<name> — one file as the raw body (curl -T), online at once
export const handleShareFile = fastRoute(operations.uploadShareFile, async ({ req, rt, principal, query }) => {
  const length = contentLength(req);
  const name = nameOf(req.url);
  const body = req.body!;
  const share = new OneRequestShare(rt, principal, length);
  const created = await storeOrDiscard(share, body, async () => {
    await share.begin(query);
    await share.add(name, body, length);
  });
  return createdReply(rt.env, req, created);
});

const FIELDS = new Set(['note', 'expires_at', 'password', 'max_downloads']);

// POST /api/shares/files — one or more files as multipart/form-data (ShareX, phone share actions, scripts)
export const handleShareFiles = fastRoute(operations.uploadShareFiles, async ({ req, rt, principal }) => {
  const length = contentLength(req);
  const type = req.header('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw badRequest('Send the files as multipart/form-data');
  const body = req.body!;
  const share = new OneRequestShare(rt, principal, length);
  const fields: Record<string, string> = {};
  let begun = false;
  return createdReply(
    rt.env,
    req,
    await storeOrDiscard(share, body, async () => {
      await readMultipart(body, type, MAX_SHARE_FILES, {
        field(name, value, afterFiles) {
          if (!FIELDS.has(name)) return;
          if (afterFiles) throw badRequest('Send note, expires_at, password and max_downloads before the files');
          if (value !== '') fields[name] = value;
        },
        async file(stream, filename) {
          if (!begun) {
            begun = true;
            await share.begin(parseWith(oneRequestQuerySchema, fields));
          }
          await share.add(filename, stream, null);
        },
        active: () => share.active,
      });
      if (share.fileCount === 0) throw badRequest('Send at least one file part (with a filename)');
    }),
  );
});

/**
 * 201 with the share's whole link in Location (the answer's `url` is a path, as the contract
 * has it: a terminal or a script needs the host too). A client that asks for text/plain before
 * JSON (`curl -T f -H 'Accept: text/plain' …`, as transfer.sh answers) gets the link alone.
 */
function createdReply(env: Env, req: FastRequest, share: ShareDto): FastReply {
  const link = `${ownOrigin(env, req, `http://localhost${req.url}`)}${share.url}`;
  const reply = prefersText(req.header('accept')) ? { status: 201, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: `${link}\n` } : jsonReply(201, { share });
  reply.headers.Location = link;
  return reply;
}

/** Accept names text/plain, and not application/json at least as highly (curl's default * / * stays JSON). */
function prefersText(accept: string | undefined): boolean {
  if (!accept) return false;
  const q = (type: string) => {
    const m = accept.split(',').map((p) => p.trim().split(';')).find(([t]) => t.trim().toLowerCase() === type);
    if (!m) return -1;
    const qp = m.slice(1).find((x) => x.trim().startsWith('q='));
    return qp ? Number(qp.trim().slice(2)) || 0 : 1;
  };
  const text = q('text/plain');
  return text > 0 && text >= q('application/json');
}

/** Content-Length is required: the quota is checked from it before a byte is stored. */
function contentLength(req: FastRequest): number {
  const length = req.header('content-length');
  if (length === undefined || !/^\d{1,15}$/.test(length) || req.header('transfer-encoding') || !req.body) {
    throw new AppError('invalid_request', 'Send the body with a Content-Length header (no chunked encoding)');
  }
  return Number(length);
}

/** The file name: the rest of the path, percent-decoded (server.ts refused undecodable paths). */
function nameOf(url: string): string {
  const q = url.indexOf('?');
  const encoded = (q < 0 ? url : url.slice(0, q)).slice('/api/shares/file/'.length);
  const name = decodeURIComponent(encoded);
  if (!name) throw badRequest('Name the file in the path: PUT /api/shares/file/<name> (curl -T adds it when the URL ends with /)');
  return name;
}

/** Runs the upload, then publishes; on any failure nothing stays behind (objects, records, reservation). */
async function storeOrDiscard(share: OneRequestShare, body: Readable, work: () => Promise<void>): Promise<ShareDto> {
  try {
    await work();
    return await share.publish();
  } catch (e) {
    await share.discard().catch((err) => console.error('[htmls] discarding a one-request upload failed; the janitor will retry:', err));
    // A client that went away is not a server fault: no 5xx, no log.
    if (e === body.errored || e instanceof StorageIncompleteBodyError) {
      throw new AppError('invalid_request', 'The connection closed before the whole body arrived');
    }
    // The group was aborted meanwhile (POST /api/shares/upload/abort): its uploads are gone.
    if (isStorageNotFound(e)) throw notFound('This upload was cancelled');
    throw e;
  }
}
