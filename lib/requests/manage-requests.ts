import 'server-only';
import {
  deleteRequestRow,
  findRequest,
  insertRequest,
  pageRequests,
  pendingGroupsOfRequest,
  updateRequestRow,
  type RequestPatch,
} from '@/db/queries/requests';
import { randomId } from '../auth/crypto';
import { limitPasswordSetting, setterKey } from '../auth/password-setting';
import { hashPassword } from '../auth/passwords';
import { isAdmin, type Principal } from '../auth/principal';
import { managedBy } from '../auth/owner';
import type { ListQuery } from '../contract/lists';
import type { CreateRequestInput, UpdateRequestInput } from '../contract/requests';
import { AppError, notFound } from '../errors';
import { formatBytes } from '../format-bytes';
import { encodeCursor, pageQueryOf } from '../lists/page-cursor';
import { mapLimit } from '../map-limit';
import type { Runtime } from '../runtime';
import { discardGroup } from '../shares/abort-upload';
import { toRequestDto, type RequestDto } from './request-dto';

/** FILE_REQUESTS: off → nobody makes requests; admin → administrators only; members → everyone. */
function assertMayCreate(rt: Runtime, p: Principal): void {
  const mode = rt.env.fileRequests;
  if (mode === 'off') throw new AppError('forbidden', 'File requests are turned off on this service');
  if (mode === 'admin' && !isAdmin(p)) throw new AppError('forbidden', 'Only administrators may make file requests on this service');
}

function checkMaxBytes(rt: Runtime, maxBytes: number | null | undefined): void {
  const cap = rt.env.requestMaxBytes;
  if (cap !== undefined && maxBytes != null && maxBytes > cap) {
    throw new AppError('too_large', `A file request may take at most ${formatBytes(cap)} on this service`);
  }
}

async function patchOf(rt: Runtime, principal: Principal, input: UpdateRequestInput): Promise<RequestPatch> {
  const patch: RequestPatch = {};
  if (input.note !== undefined) patch.note = input.note;
  if (input.expires_at !== undefined) patch.expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
  if (input.max_files !== undefined) patch.maxFiles = input.max_files;
  if (input.max_bytes !== undefined) patch.maxBytes = input.max_bytes;
  if (input.max_uploads !== undefined) patch.maxUploads = input.max_uploads;
  if (input.require_name !== undefined) patch.requireName = input.require_name;
  if (input.allowed_types !== undefined) patch.allowedTypes = input.allowed_types === null ? null : [...new Set(input.allowed_types)];
  if (input.status !== undefined) patch.status = input.status;
  checkMaxBytes(rt, input.max_bytes);
  if (input.password) await limitPasswordSetting(rt, principal);
  if (input.password !== undefined) patch.passwordHash = input.password ? await hashPassword(input.password, setterKey(principal)) : null;
  return patch;
}

/** POST /api/requests: a member's new request (the Admin Token has no account to receive into). */
export async function createRequest(rt: Runtime, principal: Principal, input: CreateRequestInput): Promise<RequestDto> {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'Files received through a request belong to an account: sign in as a member or administrator user');
  assertMayCreate(rt, principal);
  const patch = await patchOf(rt, principal, input);
  const id = randomId(12);
  await insertRequest(rt.db, { id, userId: principal.user.id, ...patch });
  return toRequestDto((await findRequest(rt.db, id))!);
}

/** GET /api/requests: a page of the caller's requests (the administrator: everyone's). */
export async function listRequests(rt: Runtime, principal: Principal, query: ListQuery): Promise<{ requests: RequestDto[]; next_cursor: string | null }> {
  const page = await pageRequests(rt.db, managedBy(principal), pageQueryOf(query));
  return { requests: page.rows.map(toRequestDto), next_cursor: encodeCursor(page.next) };
}

/** GET /api/requests/:id */
export async function getRequest(rt: Runtime, principal: Principal, id: string): Promise<RequestDto> {
  const found = await findRequest(rt.db, id, managedBy(principal));
  if (!found) throw notFound('No such file request');
  return toRequestDto(found);
}

/** PATCH /api/requests/:id: settings, and `status` to close or reopen (the administrator: any request). */
export async function updateRequest(rt: Runtime, principal: Principal, id: string, input: UpdateRequestInput): Promise<RequestDto> {
  const owner = managedBy(principal);
  const found = await findRequest(rt.db, id, owner);
  if (!found) throw notFound('No such file request');
  const patch = await patchOf(rt, principal, input);
  if (Object.keys(patch).length > 0 && !(await updateRequestRow(rt.db, owner, id, patch))) throw notFound('No such file request');
  return toRequestDto((await findRequest(rt.db, id))!);
}

/**
 * DELETE /api/requests/:id/uploads: every guest upload to the request still unfinished is
 * discarded with its parts, and the quota it holds freed (issue 39: the owner sees what
 * guests hold and can let it go). One a guest completes meanwhile stays (the discard is
 * conditional on pending). Answers how many were discarded.
 */
export async function discardRequestUploads(rt: Runtime, principal: Principal, id: string): Promise<number> {
  if (!(await findRequest(rt.db, id, managedBy(principal)))) throw notFound('No such file request');
  let n = 0;
  await mapLimit(await pendingGroupsOfRequest(rt.db, id), 4, async (g) => {
    if (await discardGroup(rt, g)) n++;
  });
  return n;
}

/**
 * DELETE /api/requests/:id: the request and its unfinished guest uploads; files already
 * received stay, as the owner's shares (their `received` still names the request and sender).
 */
export async function deleteRequest(rt: Runtime, principal: Principal, id: string): Promise<void> {
  if (!(await deleteRequestRow(rt.db, managedBy(principal), id))) throw notFound('No such file request');
  await mapLimit(await pendingGroupsOfRequest(rt.db, id), 4, (g) => discardGroup(rt, g));
}
