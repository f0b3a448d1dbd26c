import 'server-only';
import { json } from './route';
import type { Runtime } from '../runtime';
import type { LogInResult } from '../auth/log-in';
import { toUserDto } from '../users/user-dto';
import { sessionCookie } from './session-cookies';

/**
 * The answer of a sign-in step: the session (body and cookie), or the second factor it waits
 * for — `{second_factor, challenge, expires_at}` and no cookie. `extra` joins the body (the
 * recovery codes of an enrolment that finishes a sign-in). The account goes out as its DTO, never
 * as its row.
 */
export function signInResponse(rt: Runtime, req: Request, r: LogInResult, extra: Record<string, unknown> = {}): Response {
  if (r.kind === 'second_factor') {
    return json({ ...extra, second_factor: r.secondFactor, challenge: r.challenge, expires_at: r.expiresAt.toISOString() });
  }
  return json(
    { ...extra, role: r.role, user: r.kind === 'admin' ? null : toUserDto(r.account), token: r.token, expires_at: r.expiresAt.toISOString() },
    200,
    { 'Set-Cookie': sessionCookie(rt, req, r.kind === 'admin' ? 'admin' : 'member', r.token) },
  );
}

/** Who signs in, for the session's record: the address and the user agent. */
export const clientOf = (req: Request, ip: string) => ({ ip, userAgent: req.headers.get('user-agent') ?? '' });
