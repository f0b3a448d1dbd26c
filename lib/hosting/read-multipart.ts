import 'server-only';
import Busboy from 'busboy';
import type { Readable } from 'node:stream';
import { AppError, badRequest } from '../errors';

export interface MultipartHandlers {
  /** `afterFiles`: a file part came before this field. */
  field(name: string, value: string, afterFiles: boolean): void;
  /** Files are handed over one at a time, in order; the next waits for this one's promise. */
  file(stream: Readable, filename: string): Promise<void>;
  /** The stream being consumed, destroyed when the upload fails so its writer gives up. */
  active(): Readable | undefined;
}

/**
 * Streams a multipart form: fields as they come, each file to `file()` without buffering.
 * Filenames are UTF-8 (busboy's default is latin1, which turns café.html into cafÃ©.html).
 * Settles when every file handler has finished, or rejects after the failing one gave up.
 */
export function readMultipart(source: Readable, contentType: string, maxFiles: number, h: MultipartHandlers): Promise<void> {
  return new Promise((resolve, reject) => {
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({
        headers: { 'content-type': contentType },
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { files: maxFiles, fields: 20, fieldSize: 16 * 1024, parts: maxFiles + 20 },
      });
    } catch {
      return reject(badRequest('The multipart body has no boundary'));
    }
    let failed = false;
    let sawFile = false;
    let chain = Promise.resolve();
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe(bb);
      source.resume(); // drain the rest so the connection can answer
      h.active()?.destroy(e instanceof Error ? e : new Error(String(e)));
      // Settle only when the file being stored has given up, so cleanup sees all it wrote.
      // (The chain never rejects: each file's step catches into fail().)
      chain.then(() => reject(e), () => reject(e));
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`The field ${name} is too long`));
      try {
        h.field(name, value, sawFile);
      } catch (e) {
        fail(e);
      }
    });
    bb.on('file', (_name, stream, info) => {
      const filename = info.filename;
      // A queued file can fail ("Unexpected end of form") before its handler listens: bb's own
      // 'error' reports it, so this listener only keeps it from being an uncaught exception.
      stream.on('error', () => {});
      if (failed || !filename) return void stream.resume(); // an empty file input
      sawFile = true;
      chain = chain.then(() => (failed ? void stream.resume() : h.file(stream, filename))).catch((e) => {
        stream.resume();
        fail(e);
      });
    });
    bb.on('filesLimit', () => fail(new AppError('body_too_large', `At most ${maxFiles} files per upload`)));
    bb.on('partsLimit', () => fail(new AppError('body_too_large', 'Too many parts in one upload')));
    bb.on('fieldsLimit', () => fail(badRequest('Too many form fields')));
    bb.on('error', () => fail(badRequest('The multipart body is malformed or incomplete')));
    bb.on('close', () => {
      chain.then(
        () => {
          if (!failed) resolve();
        },
        (e: unknown) => fail(e),
      );
    });
    source.on('error', () => fail(badRequest('The upload was interrupted')));
    source.pipe(bb);
  });
}
