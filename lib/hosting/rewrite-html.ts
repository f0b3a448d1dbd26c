import 'server-only';
import { Readable } from 'node:stream';
import type { StorageDriver } from '../storage/types';
export const BASE_TAG = '<base target="_blank">';
export const VIEWPORT_TAG = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/** How far into a document we look for <head>, <base> and the viewport meta. */
export const SCAN_BYTES = 64 * 1024;

const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'noscript', 'iframe', 'noembed', 'noframes', 'plaintext']);

export interface Injection {
  /** Byte offset where `text` goes. */
  offset: number;
  text: string;
}

/**
 * Where and what to inject so the document has exactly one `<base target="_blank">` and one
 * viewport meta: nothing when both exist. Works on the bytes as latin1 so offsets are byte
 * offsets of the UTF-8 original; skips comments; tolerates a BOM, upper case and no <head>.
 */
export function planInjection(head: Buffer, opts: { baseHref?: string } = {}): Injection | null {
  const html = head.subarray(0, SCAN_BYTES).toString('latin1');
  let i = html.startsWith('\u00ef\u00bb\u00bf') ? 3 : 0; // UTF-8 BOM as latin1
  let afterPrologue = i;
  let headEnd = -1;
  let htmlEnd = -1;
  let hasBase = false;
  let hasViewport = false;
  let sawElement = false;
  while (i < html.length) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      if (!sawElement) afterPrologue = i;
      continue;
    }
    if (html[i] !== '<') {
      i++;
      continue;
    }
    const end = tagEnd(html, i);
    if (end < 0) break;
    const tag = html.slice(i, end + 1);
    const name = /^<\/?([a-zA-Z][a-zA-Z0-9-]*|!doctype)/i.exec(tag)?.[1]?.toLowerCase();
    if (name === '!doctype' || tag.startsWith('<?')) {
      if (!sawElement) afterPrologue = end + 1;
    } else if (name) {
      sawElement = true;
      const closing = tag.startsWith('</');
      if (!closing && name === 'html' && htmlEnd < 0) htmlEnd = end + 1;
      else if (!closing && name === 'head' && headEnd < 0) headEnd = end + 1;
      else if (!closing && name === 'base') hasBase = true;
      else if (!closing && name === 'meta' && /\bname\s*=\s*["']?viewport\b/i.test(tag)) hasViewport = true;
      else if ((closing && name === 'head') || (!closing && name === 'body')) break;
      // Raw text runs from an opening tag to its closing tag; a closing tag opens nothing.
      if (!closing && RAW_TEXT.has(name)) {
        const close = html.toLowerCase().indexOf(`</${name}`, end + 1);
        i = close < 0 ? html.length : close;
        continue;
      }
    }
    i = end + 1;
  }
  if (hasBase && hasViewport) return null;
  // A page served at another path (the SPA fallback) resolves its relative URLs from its own folder.
  const base = opts.baseHref ? `<base href="${opts.baseHref.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}" target="_blank">` : BASE_TAG;
  const text = `${hasBase ? '' : base}${hasViewport ? '' : VIEWPORT_TAG}`;
  const offset = headEnd >= 0 ? headEnd : htmlEnd >= 0 ? htmlEnd : afterPrologue;
  return { offset, text };
}

/** The index of the `>` closing the tag at `start`, skipping quoted attribute values. */
function tagEnd(html: string, start: number): number {
  let quote = '';
  for (let j = start + 1; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return j;
    }
  }
  return -1;
}

export function applyInjection(body: Buffer, plan: Injection | null): Buffer {
  if (!plan) return body;
  return Buffer.concat([body.subarray(0, plan.offset), Buffer.from(plan.text), body.subarray(plan.offset)]);
}

/** The object's bytes with `text` inserted at `offset`, streamed from two range reads. */
export function streamWithInsert(storage: StorageDriver, key: string, size: number, offset: number, text: string): Readable {
  return Readable.from(
    (async function* () {
      if (offset > 0) yield* (await storage.get(key, { start: 0, end: offset - 1 })).body;
      yield Buffer.from(text);
      if (offset < size) yield* (await storage.get(key, { start: offset, end: size - 1 })).body;
    })(),
  );
}
