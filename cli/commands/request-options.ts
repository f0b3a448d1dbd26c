import { parseSize } from '../../lib/client/format';
import type { BodyOf } from '../../lib/contract/operations';
import type { ResponseOf } from '../../lib/contract/operations';
import { formatBytes } from '../../lib/client/format';
import { UsageError } from '../command';
import { parseExpiry } from '../format-args';

type FileRequest = ResponseOf<'listRequests'>['requests'][number];

/** The limits a request is made or changed with, shared by `request create` and `request-set`. */
export const REQUEST_LIMITS = {
  note: { type: 'string', value: 'TEXT', description: 'What you ask for, shown to senders' },
  'max-files': { type: 'string', value: 'N', description: 'Most files in one upload' },
  'max-size': { type: 'string', value: 'SIZE', description: 'Most bytes in one upload: 500MB, 2GB' },
  'max-uploads': { type: 'string', value: 'N', description: 'Uploads after which the request is full' },
  types: { type: 'string', value: 'LIST', description: 'Allowed types, comma-separated: video/*,.pdf' },
  expires: { type: 'string', value: 'WHEN', description: 'When the link stops working: 7d, 24h, 90m or an ISO time' },
  'require-name': { type: 'boolean', description: 'Senders must give their name' },
} as const;

const whole = (text: string, option: string) => {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${option} takes a whole number, 1 or more (not "${text}")`);
  return n;
};

/** The request fields the options give (only those given). */
export function requestFields(o: Partial<Record<keyof typeof REQUEST_LIMITS, string | boolean>>): BodyOf<'updateRequest'> {
  const body: BodyOf<'updateRequest'> = {};
  if (typeof o.note === 'string') body.note = o.note;
  if (typeof o['max-files'] === 'string') body.max_files = whole(o['max-files'], 'max-files');
  if (typeof o['max-uploads'] === 'string') body.max_uploads = whole(o['max-uploads'], 'max-uploads');
  if (typeof o['max-size'] === 'string') {
    const bytes = parseSize(o['max-size'], 'MB');
    if (bytes === null || bytes < 1) throw new UsageError(`Cannot read the size "${o['max-size']}": use 500MB or 2GB`);
    body.max_bytes = bytes;
  }
  if (typeof o.types === 'string') {
    const types = o.types.split(',').map((t) => t.trim()).filter(Boolean);
    if (types.length === 0) throw new UsageError('--types lists at least one type, such as video/*,.pdf');
    body.allowed_types = types;
  }
  if (typeof o.expires === 'string') body.expires_at = parseExpiry(o.expires);
  if (o['require-name'] === true) body.require_name = true;
  return body;
}

/** What a request is now: closed, expired, full or open. */
export function requestState(r: FileRequest, now = Date.now()): string {
  if (r.status === 'closed') return 'closed';
  if (r.expires_at && Date.parse(r.expires_at) <= now) return 'expired';
  if (r.max_uploads !== null && r.upload_count >= r.max_uploads) return 'full';
  return 'open';
}

/** One line of `htmls requests`. */
export function requestLine(r: FileRequest, baseUrl: string, now = Date.now()): string {
  const limits = [
    r.max_files === null ? null : `≤${r.max_files} files`,
    r.max_bytes === null ? null : `≤${formatBytes(r.max_bytes)}`,
    r.max_uploads === null ? null : `${r.upload_count}/${r.max_uploads} uploads`,
    r.allowed_types ? r.allowed_types.join(',') : null,
    r.has_password ? 'password' : null,
  ].filter(Boolean);
  const received = `${r.upload_count} ${r.upload_count === 1 ? 'upload' : 'uploads'}, ${formatBytes(r.received_bytes)}`;
  return `${r.id}  ${requestState(r, now).padEnd(7)} ${received}  ${limits.join('  ')}${limits.length ? '  ' : ''}${baseUrl}${r.url}${r.note ? `  — ${r.note}` : ''}`;
}
