/**
 * What the CLI says for each error code. The server's codes come from lib/errors.ts: a new
 * code without a message here fails `npm run typecheck`.
 */
import { ApiError } from '../lib/client/api';
import type { ErrorCode } from '../lib/errors';

const SERVER: Record<ErrorCode, string> = {
  invalid_request: 'The server refused the request as invalid.',
  invalid_path: 'A file path is not allowed.',
  duplicate_path: 'Two files would land at the same path.',
  too_many_files: 'Too many files for one upload.',
  too_large: 'The upload is larger than the server allows.',
  token_too_short: 'The token is too short.',
  token_too_weak: 'That token is too easy to guess: choose a longer, random one.',
  webhook_url_not_allowed: 'That webhook URL is not allowed (a private or link-local address, or not http(s)).',
  size_mismatch: 'A file changed size while it was being sent: share it again.',
  type_not_allowed: 'This file request does not take that type of file.',
  invalid_site_rules: 'The site\'s _redirects or _headers has a line it cannot take (the server names the file and line).',
  unauthenticated: 'Not signed in (or the session ended): run `htmls login`.',
  wrong_password: 'Wrong password.',
  wrong_code: 'Wrong code (or a code used already).',
  forbidden: 'Your account may not do that.',
  account_disabled: 'This account is disabled.',
  insufficient_scope: 'The access token (HTMLS_TOKEN) lacks a scope this needs.',
  not_found: 'Not found (or not yours).',
  method_not_allowed: 'The server does not take this request here: is the URL an htmls server?',
  slug_taken: 'That site name is taken: choose another --slug, or add --replace (a new version) or --append.',
  domain_taken: 'That domain already belongs to another project: remove it there first.',
  username_taken: 'That username is taken.',
  upload_not_complete: "That share's upload never finished: share the files again.",
  already_completed: 'That upload is already complete.',
  conflict: 'Someone changed this at the same time; try again.',
  expired: 'That share has expired.',
  quota_exceeded: 'Not enough free quota for this upload.',
  part_too_large: 'The server refused a part as too large.',
  download_limit: 'This share reached its download limit.',
  request_full: 'This file request has received all the uploads it takes.',
  too_many_pending: 'Too many unfinished uploads: let them finish, or cancel some, then try again.',
  body_too_large: 'The request is larger than the server takes.',
  unsupported_media_type: 'The server refused the kind of content sent.',
  range_not_satisfiable: 'The requested range is outside the file.',
  rate_limited: 'Too many attempts.',
  request_timeout: 'The request took too long and the server closed it; try again.',
  internal_error: 'The server failed; its log says why.',
  storage_unavailable: 'The server cannot reach its file storage right now; try again shortly.',
  migrations_pending: 'The server is being upgraded; try again in a minute.',
  database_unavailable: 'The server cannot reach its database right now; try again shortly.',
};

/** Codes the client itself raises. */
const CLIENT = {
  network_error: 'Could not reach the server.',
  local_file_error: 'A file could not be read; the upload was cancelled.',
  files_changed: 'The files changed since the interrupted upload: it starts afresh.',
  http_error: 'The server answered with an error.',
  timeout: 'The server took too long to answer.',
} as const;

const MESSAGES: Record<string, string> = { ...SERVER, ...CLIENT };

/** Codes whose server message names the case (which file, which limit): a generic hint would mislead. */
const SERVER_SAYS_IT = new Set<string>(['conflict', 'token_refused', 'not_signed_in', 'password_required']);

/** A message's words, for comparing two messages whatever their case and punctuation. */
const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

export function explain(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.code === 'rate_limited') return `Too many attempts; try again in ${e.retryAfter ?? 60} seconds.`;
    const friendly = MESSAGES[e.code];
    // The server's own words when they are specific (a share's only file is no concurrent
    // change); one sentence, never the same one twice ("Wrong password. (Wrong password)").
    if (!friendly || SERVER_SAYS_IT.has(e.code)) return e.message;
    const said = words(e.message);
    if (!said || words(friendly).includes(said)) return friendly;
    if (said.includes(words(friendly))) return e.message;
    return `${friendly} (${e.message})`;
  }
  // A file or folder gone between the check and the read: its name, not Node's "ENOENT: no such file…".
  const io = e as NodeJS.ErrnoException;
  if (io?.code === 'ENOENT' && io.path) return `No such file or folder: ${io.path}`;
  if (io?.code === 'EACCES' && io.path) return `Not allowed to read ${io.path}`;
  return (e as Error).message;
}
