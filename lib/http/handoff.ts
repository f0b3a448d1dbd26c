/**
 * Large hosted objects handed to the hosted front (lib/http/hosted-front.ts): a request the
 * front forwarded gets its object's bytes from the front itself, which opens the store and
 * streams to its client, instead of every byte crossing the loopback hop between the threads
 * (that hop halved a large file's speed: docs/performance.md).
 *
 * The main thread still decides everything — the gate, the status, every header, the range — and
 * answers the front with those headers, no body, and where the bytes are.
 */
import { Readable } from 'node:stream';
import type { ByteRange, StorageDriver } from '../storage/types';

/** Below this a body crosses the hop (a cached or small file costs one write either way). */
export const HANDOFF_MIN_BYTES = 1024 * 1024;

/** Response headers of the inner hop: the object (JSON: key, start, end) and its real length. */
export const HANDOFF_OBJECT_HEADER = 'x-htmls-front-object';
export const HANDOFF_LENGTH_HEADER = 'x-htmls-front-length';

export interface HandoffObject {
  key: string;
  start?: number;
  end?: number;
}

const HANDOFF = Symbol('htmls.handoff');

/**
 * The front's per-start secret, which opens the object header's value: a header of that name
 * that some other part of a reply carried (a site's own header rules, one day) is not a handoff.
 */
const token: { value: string } = { value: '' };
export function setHandoffToken(value: string): void {
  token.value = value;
}

/** The object header's value: `<secret> <JSON of the object>`. */
export const handoffHeaderValue = (object: HandoffObject): string => `${token.value} ${JSON.stringify(object)}`;

/** The object an inner reply's header names, when it carries `secret`; else null. */
export function parseHandoffHeader(value: string, secret: string): HandoffObject | null {
  if (!secret || !value.startsWith(`${secret} `)) return null;
  try {
    const o = JSON.parse(value.slice(secret.length + 1)) as HandoffObject;
    return typeof o.key === 'string' ? o : null;
  } catch {
    return null;
  }
}

/**
 * The bytes of `key` (or `range` of it), opened only when read: a reply that carries it to the
 * front is never read here (handoffOf); one read anyway streams as usual.
 */
export function handoffBody(storage: StorageDriver, key: string, range?: ByteRange): Readable {
  const body = Readable.from(
    (async function* () {
      yield* (await storage.get(key, range)).body;
    })(),
    { objectMode: false },
  );
  (body as Readable & { [HANDOFF]?: HandoffObject })[HANDOFF] = { key, start: range?.start, end: range?.end };
  return body;
}

/** The object a not-yet-read handoff body stands for, else null. */
export function handoffOf(body: unknown): HandoffObject | null {
  if (!(body instanceof Readable)) return null;
  const h = (body as Readable & { [HANDOFF]?: HandoffObject })[HANDOFF];
  return h && !body.readableDidRead && !body.destroyed ? h : null;
}
