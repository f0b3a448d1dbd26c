import 'server-only';
import type { FastReply, FastRequest } from '../fast';
import { passwordPage } from '../password-page';
import { localeOf } from '../locale-of';
import { refusal, type GuestGroupAccess } from '../../shares/access';

/**
 * The reply of a guest byte path (an item, the ZIP) whose gate is not open: the password page
 * (401, in the guest's language) when locked, else the refusal thrown (404, 410 expired or
 * download_limit). Null: open.
 */
export function gateReply(access: Pick<GuestGroupAccess, 'state'>, id: string, req: Pick<FastRequest, 'header'>): FastReply | null {
  if (access.state === 'open') return null;
  if (access.state === 'locked') return passwordPage({ status: 401, subject: 'share', locale: localeOf((name) => req.header(name)), action: `/f/${id}/unlock`, next: `/f/${id}` });
  throw refusal(access.state);
}

