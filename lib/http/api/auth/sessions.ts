import { endOtherSessionsOf, listSessions } from '@/lib/auth/session-list';
import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';

// GET /api/auth/sessions — the member's sessions
export const GET = route(operations.listSessions, async ({ rt, principal, ip }) => json({ sessions: await listSessions(rt, principal, ip) }));

// DELETE /api/auth/sessions — every session but the caller's ends
export const DELETE = route(operations.endOtherSessions, async ({ rt, principal, ip }) => {
  await endOtherSessionsOf(rt, principal, ip);
  return noContent();
});
