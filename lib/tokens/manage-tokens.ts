import 'server-only';
import { deleteAccessToken, insertAccessToken, listAccessTokensPage } from '@/db/queries/access-tokens';
import { adminCredentialTag } from '../auth/admin-credential';
import { randomString, sha256Hex } from '../auth/crypto';
import { ownerIdOf, type Principal } from '../auth/principal';
import { assertGrantable } from '../auth/scopes';
import { PREFIX_LENGTH, SECRET_PREFIX } from '../contract/scopes';
import type { CreateTokenInput, PageQuery } from '../contract/tokens';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { isUuid } from '../is-uuid';
import { toAccessTokenDto, type AccessTokenDto } from './token-dto';
import { decodeUsCursor, encodeUsCursor } from '../lists/page-cursor';

const ALPHANUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * POST /api/tokens: a new token of the caller's (a session, never a token: the operation's
 * scope is no-token). Scopes beyond the caller's role are refused; a token made in an Admin
 * Token session carries the credential's tag, so it ends when the Admin Token changes.
 */
export async function createAccessToken(rt: Runtime, principal: Principal, input: CreateTokenInput): Promise<{ token: AccessTokenDto; secret: string }> {
  assertGrantable(principal, input.scopes);
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new AppError('invalid_request', 'expires_at: the expiry must be in the future');
  // 40 characters of 62: 238 random bits, alphanumeric so secret scanners match it whole.
  const secret = SECRET_PREFIX + randomString(40, ALPHANUM);
  const ownerId = ownerIdOf(principal);
  const row = await insertAccessToken(rt.db, {
    userId: ownerId,
    name: input.name,
    tokenHash: sha256Hex(secret),
    prefix: secret.slice(0, PREFIX_LENGTH),
    scopes: input.scopes,
    credentialTag: ownerId === null ? await adminCredentialTag(rt) : null,
    expiresAt,
  });
  return { token: toAccessTokenDto(row), secret };
}

/** GET /api/tokens: the caller's own tokens, newest first, one page (API.md "Lists page"). */
export async function listAccessTokens(rt: Runtime, principal: Principal, page: PageQuery): Promise<{ tokens: AccessTokenDto[]; next_cursor: string | null }> {
  const rows = await listAccessTokensPage(rt.db, { ownerId: ownerIdOf(principal) }, {
    limit: page.limit + 1,
    after: page.cursor ? decodeUsCursor(page.cursor) : undefined,
    q: page.q || undefined,
  });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    tokens: shown.map((r) => toAccessTokenDto(r.token)),
    next_cursor: rows.length > page.limit && last ? encodeUsCursor({ createdAtUs: last.createdAtUs, id: last.token.id }) : null,
  };
}

/** DELETE /api/tokens/:id: one of the caller's own tokens (another's is a 404). */
export async function revokeAccessToken(rt: Runtime, principal: Principal, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteAccessToken(rt.db, { ownerId: ownerIdOf(principal) }, id))) throw notFound('No such token');
}
