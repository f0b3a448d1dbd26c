import 'server-only';
import type { PreviewKind } from './contract/dtos';
/** Content types decided by the server from the extension, never taken from a client. */
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  xhtml: 'application/xhtml+xml',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  cjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  webmanifest: 'application/manifest+json',
  txt: 'text/plain; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  heic: 'image/heic',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  wasm: 'application/wasm',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  ts: 'video/mp2t',
  m3u8: 'application/vnd.apple.mpegurl',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  flac: 'audio/flac',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  xz: 'application/x-xz',
  bz2: 'application/x-bzip2',
  zst: 'application/zstd',
  dmg: 'application/x-apple-diskimage',
  iso: 'application/x-iso9660-image',
  apk: 'application/vnd.android.package-archive',
  epub: 'application/epub+zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
};

export const OCTET_STREAM = 'application/octet-stream';

export function contentTypeFor(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return OCTET_STREAM;
  return TYPES[name.slice(dot + 1).toLowerCase()] ?? OCTET_STREAM;
}

export const isHtmlType = (type: string) => type.startsWith('text/html');

/**
 * Types a browser would run as script or render as an active document on our origin, plus
 * anything we cannot name: served from shares as attachments only. PDFs too (issue 22, item
 * 12): a PDF is a document with scripts, forms and links of its own, and the share pages are the
 * console's origin.
 */
export function isActiveType(type: string): boolean {
  const t = type.split(';')[0].trim();
  return (
    t === OCTET_STREAM ||
    t === 'text/html' ||
    t === 'application/xhtml+xml' ||
    t === 'image/svg+xml' ||
    t === 'application/xml' ||
    t === 'text/xml' ||
    t === 'text/javascript' ||
    t === 'application/javascript' ||
    t === 'application/wasm' ||
    t === 'application/pdf'
  );
}

export const previewKind = (type: string): PreviewKind => {
  const t = type.split(';')[0];
  if (t.startsWith('video/') && t !== 'video/x-matroska' && t !== 'video/x-msvideo') return 'video';
  if (t.startsWith('audio/')) return 'audio';
  if (t.startsWith('image/') && t !== 'image/svg+xml' && t !== 'image/heic' && t !== 'image/tiff') return 'image';
  if (t.startsWith('text/') && t !== 'text/html' && t !== 'text/javascript') return 'text';
  return null;
};
