import 'server-only';
import Busboy from 'busboy';
import { Readable, Transform } from 'node:stream';
import { insertProject, listProjectsWithFiles, lockProject, projectExists, updateProjectRow, upsertHostedFiles, type NewHostedFile } from '@/db/queries/hosting';
import { randomString } from '../auth/crypto';
import { hashPassword } from '../auth/passwords';
import { AppError, badRequest } from '../errors';
import { contentTypeFor } from '../http/mime';
import { sanitizeRelativePath } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { cancelDeletion, runDeletions, scheduleDeletion } from '../storage/gc';
import { hostedBatchPrefix, hostedFileKey } from '../storage/keys';
import { toProjectDto, type ProjectDto } from './project-dto';
import { invalidateSite } from './site-cache';
import { assertSlug, randomSlug } from './slug';

const GiB = 1024 ** 3;
export const HOSTED_LIMITS = { files: 10_000, totalBytes: 5 * GiB, noteChars: 2000, passwordChars: 256 };
/** An upload that has not committed after this long is swept by the janitor. */
const UPLOAD_GUARD_MS = 3 * 3600 * 1000;

interface Fields {
  slug?: string;
  note?: string;
  password?: string;
  append?: string;
}

interface State {
  fields: Fields;
  slug?: string;
  append: boolean;
  batch: string;
  guardId?: string;
  files: NewHostedFile[];
  paths: Set<string>;
  total: number;
  sawFile: boolean;
  /** The file stream being stored, destroyed when the upload fails. */
  active?: Readable;
}

/**
 * POST /api/upload: streams every part of a multipart form straight into the store under a
 * fresh batch prefix, then publishes all files in one transaction. Until that commit nothing
 * is visible, and a failure deletes the batch (or, after a crash, the janitor does).
 */
export async function uploadProject(rt: Runtime, req: Request): Promise<ProjectDto> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw badRequest('Send the files as multipart/form-data');
  if (!req.body) throw badRequest('The request has no body');
  const state: State = { fields: {}, append: false, batch: randomString(10), files: [], paths: new Set(), total: 0, sawFile: false };
  try {
    await parse(rt, Readable.fromWeb(req.body as never), type, state);
    if (state.files.length === 0) throw badRequest('Choose at least one file to upload');
    return await commit(rt, state);
  } catch (e) {
    if (state.slug) {
      await rt.storage.deletePrefix(hostedBatchPrefix(state.slug, state.batch)).catch(() => {});
      if (state.guardId) await cancelDeletion(rt.db, [state.guardId]).catch(() => {});
    }
    throw e;
  }
}

function parse(rt: Runtime, source: Readable, type: string, state: State): Promise<void> {
  return new Promise((resolve, reject) => {
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({
        headers: { 'content-type': type },
        preservePath: true,
        limits: { files: HOSTED_LIMITS.files, fields: 20, fieldSize: 16 * 1024, parts: HOSTED_LIMITS.files + 20 },
      });
    } catch {
      return reject(badRequest('The multipart body has no boundary'));
    }
    let failed = false;
    let chain = Promise.resolve();
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe(bb);
      source.resume(); // drain the rest so the connection can answer
      state.active?.destroy(e instanceof Error ? e : new Error(String(e)));
      // Settle only when the file being stored has given up, so cleanup sees all it wrote.
      chain.finally(() => reject(e));
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`The field ${name} is too long`));
      if ((name === 'slug' || name === 'append') && state.sawFile) {
        return fail(badRequest('Send the slug and append fields before the files'));
      }
      if (name === 'slug' || name === 'note' || name === 'password' || name === 'append') state.fields[name] = value;
    });
    bb.on('file', (_name, stream, info) => {
      if (failed) return stream.resume();
      state.sawFile = true;
      chain = chain.then(() => (failed ? void stream.resume() : storeFile(rt, state, stream, info.filename))).catch((e) => {
        stream.resume();
        fail(e);
      });
    });
    bb.on('filesLimit', () => fail(new AppError('body_too_large', `At most ${HOSTED_LIMITS.files} files per upload`)));
    bb.on('partsLimit', () => fail(new AppError('body_too_large', 'Too many parts in one upload')));
    bb.on('fieldsLimit', () => fail(badRequest('Too many form fields')));
    bb.on('error', () => fail(badRequest('The multipart body is malformed or incomplete')));
    bb.on('close', () => {
      chain.then(() => {
        if (!failed) resolve();
      });
    });
    source.on('error', () => fail(badRequest('The upload was interrupted')));
    source.pipe(bb);
  });
}

async function startProject(rt: Runtime, state: State): Promise<string> {
  const { fields } = state;
  state.append = fields.append === 'true' || fields.append === '1';
  let slug: string;
  if (fields.slug) {
    slug = assertSlug(fields.slug.trim());
    if (!state.append && (await projectExists(rt.db, slug))) {
      throw new AppError('slug_taken', `The slug "${slug}" is already used; pick another or append to it`);
    }
  } else {
    do slug = randomSlug();
    while (await projectExists(rt.db, slug));
  }
  [state.guardId] = await scheduleDeletion(rt.db, [hostedBatchPrefix(slug, state.batch)], new Date(Date.now() + UPLOAD_GUARD_MS));
  state.slug = slug;
  return slug;
}

async function storeFile(rt: Runtime, state: State, stream: Readable, filename: string | undefined): Promise<void> {
  if (!filename) return void stream.resume(); // an empty file input
  const path = sanitizeRelativePath(filename);
  if (state.paths.has(path)) throw new AppError('duplicate_path', `The path "${path}" appears twice in this upload`);
  state.paths.add(path);
  const slug = state.slug ?? (await startProject(rt, state));
  const counter = new Transform({
    transform: (chunk: Buffer, _enc, cb) => {
      state.total += chunk.length;
      if (state.total > HOSTED_LIMITS.totalBytes) {
        return cb(new AppError('body_too_large', `An upload may hold at most ${HOSTED_LIMITS.totalBytes} bytes`));
      }
      cb(null, chunk);
    },
  });
  stream.on('error', (e) => counter.destroy(e));
  const key = hostedFileKey(slug, state.batch, path);
  state.active = stream;
  const stored = await rt.storage.put(key, stream.pipe(counter), { contentType: contentTypeFor(path) });
  state.files.push({ path, storageKey: key, size: stored.size, contentType: contentTypeFor(path), etag: stored.etag });
}

/** A folder picked as a whole arrives as `site/…`: drop the top folder all files share. */
export function stripCommonFolder(paths: string[]): string[] {
  const first = paths[0]?.split('/')[0];
  const shared = paths.every((p) => p.includes('/') && p.split('/')[0] === first);
  return shared ? paths.map((p) => p.slice(first.length + 1)) : paths;
}

async function commit(rt: Runtime, state: State): Promise<ProjectDto> {
  const slug = state.slug!;
  const { note, password } = state.fields;
  if (note !== undefined && note.length > HOSTED_LIMITS.noteChars) throw badRequest(`The note may have at most ${HOSTED_LIMITS.noteChars} characters`);
  if (password !== undefined && password.length > HOSTED_LIMITS.passwordChars) throw badRequest('The password is too long');
  const passwordHash = password ? await hashPassword(password) : undefined;
  const stripped = stripCommonFolder(state.files.map((f) => f.path));
  const files = state.files.map((f, i) => ({ ...f, path: stripped[i] }));

  const gcIds = await rt.db.transaction(async (tx) => {
    const created = await insertProject(tx, { slug, note: note ?? '', passwordHash: passwordHash ?? null });
    if (!created) {
      if (!state.append) throw new AppError('slug_taken', `The slug "${slug}" is already used; pick another or append to it`);
      await lockProject(tx, slug);
      const patch = { ...(note !== undefined ? { note } : {}), ...(passwordHash ? { passwordHash } : {}) };
      if (Object.keys(patch).length) await updateProjectRow(tx, slug, patch);
    }
    const replaced = await upsertHostedFiles(tx, slug, files);
    const ids = await scheduleDeletion(tx, replaced);
    await cancelDeletion(tx, [state.guardId!]);
    return ids;
  });
  invalidateSite(slug);
  await runDeletions(rt, gcIds).catch(() => {});
  const [row] = await listProjectsWithFiles(rt.db, slug);
  return toProjectDto(row.project, row.files);
}
