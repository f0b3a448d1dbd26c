import 'server-only';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CHUNK as BATCH } from './chunk-pool';
import { bodyGone } from './exact-length';
import { StorageIncompleteBodyError } from './errors';

export interface WriteState {
  /** Whether any byte may have reached the file. */
  wrote: boolean;
  /** How far into the file this write's bytes reached. */
  end: number;
  /** Set by complete or abort: no further write may start. */
  stopped: Error | null;
}

/**
 * The fs store's one batching writer (a part at its place, a new object's temporary file):
 * streams body into file at position, gathering socket chunks into ~1 MiB writev calls. With a
 * `size` it fails on a shorter or longer body; it fails once stopped (no write starts after
 * that, and closing the file waits for the one in flight).
 *
 * It takes the body's 'data' events and pauses it while a write runs: one promise per write, not
 * the several per 64 KB chunk of `for await` (each one also runs the async-context hooks that
 * Next installs), which costs measurably less CPU per uploaded GiB (docs/performance.md).
 */
export async function writeAt(file: string, body: Readable, position: number, size: number | undefined, state: WriteState, observe?: (chunk: Buffer) => void): Promise<void> {
  const fh = await fs.open(file, constants.O_WRONLY | constants.O_CREAT);
  try {
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      let batch: Buffer[] = [];
      let batchBytes = 0;
      let writing = false;
      let ended = false;
      let settled = false;
      const settle = (e?: unknown) => {
        if (settled) return;
        settled = true;
        body.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
        if (e) {
          body.destroy();
          reject(e);
        } else resolve();
      };
      const flush = async () => {
        if (state.stopped) throw state.stopped;
        const bufs = batch;
        const bytes = batchBytes;
        const at = position + seen - bytes;
        batch = [];
        batchBytes = 0;
        state.wrote = true;
        // Counted before the call: a write cut short may still have reached this far.
        state.end = Math.max(state.end, at + bytes);
        const { bytesWritten } = await fh.writev(bufs, at);
        if (bytesWritten !== bytes) await writeRest(fh, Buffer.concat(bufs).subarray(bytesWritten), at + bytesWritten);
      };
      const finish = () => {
        if (size !== undefined && seen !== size) return settle(new StorageIncompleteBodyError(`body ended after ${seen} of ${size} bytes`));
        if (!batchBytes) return settle();
        flush().then(() => settle(), settle);
      };
      const onData = (chunk: Buffer) => {
        seen += chunk.length;
        if (size !== undefined && seen > size) return settle(new StorageIncompleteBodyError(`body longer than the announced ${size} bytes`));
        observe?.(chunk);
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes < BATCH) return;
        writing = true;
        body.pause();
        flush().then(() => {
          writing = false;
          if (settled) return;
          if (ended) finish();
          else body.resume();
        }, settle);
      };
      const onEnd = () => {
        ended = true;
        if (!writing) finish();
      };
      // A body destroyed without an error (the client went away) never ends.
      const onClose = () => {
        if (!ended) settle(new StorageIncompleteBodyError(`body closed after ${seen}${size === undefined ? '' : ` of ${size}`} bytes`));
      };
      const gone = bodyGone(body);
      if (gone) return settle(gone);
      body.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose);
    });
  } finally {
    await fh.close();
  }
}

async function writeRest(fh: fs.FileHandle, rest: Buffer, at: number): Promise<void> {
  for (let off = 0; off < rest.length; ) off += (await fh.write(rest, off, rest.length - off, at + off)).bytesWritten;
}
