import 'server-only';
import { findGroupByUploadToken } from '@/db/queries/requests';
import { sha256Hex } from '../auth/crypto';
import { isAdmin, ownerIdOf, type Principal } from '../auth/principal';
import { UPLOAD_TOKEN_PREFIX } from '../contract/requests';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';

/**
 * A guest's upload to a file request, as its upload token names it: that one group, owned by the
 * request's owner, while it is pending. It is not a Principal: nothing but the upload protocol's
 * calls for this group takes it (lib/http/route.ts hands it only to operations marked
 * `uploadToken`), and it never becomes the owner's session.
 */
export interface GuestUploader {
  kind: 'guest';
  groupId: string;
  ownerId: string | null;
  requestId: string;
}

/** Who makes an upload protocol call: a signed-in principal, or a guest with an upload token. */
export type Uploader = Principal | GuestUploader;

export const isGuest = (u: Uploader): u is GuestUploader => u.kind === 'guest';
export const uploaderOwnerId = (u: Uploader): string | null => (isGuest(u) ? u.ownerId : ownerIdOf(u));
export const uploaderIsAdmin = (u: Uploader): boolean => !isGuest(u) && isAdmin(u);

export const isUploadToken = (token: string): boolean => token.startsWith(UPLOAD_TOKEN_PREFIX);

const invalidToken = () => new AppError('unauthenticated', 'This upload link is no longer valid: the upload was completed, cancelled or abandoned');

/**
 * The caller of an upload protocol call for `groupId`: the principal, or the guest its upload
 * token names. A token names one pending group: for any other group it is a 404 (that upload is
 * not the caller's), and once its group is completed or discarded it is a 401.
 */
export async function uploaderFor(rt: Runtime, ctx: { principal: Principal | null; uploadToken?: string }, groupId: string): Promise<Uploader> {
  if (ctx.principal) return ctx.principal;
  if (!ctx.uploadToken) throw new AppError('unauthenticated', 'Sign in to continue');
  const group = await findGroupByUploadToken(rt.db, sha256Hex(ctx.uploadToken));
  if (!group || group.requestId === null) throw invalidToken();
  if (group.id !== groupId) throw notFound('No such upload');
  return { kind: 'guest', groupId: group.id, ownerId: group.userId, requestId: group.requestId };
}
