import { endSession } from '@/lib/auth/session-list';
import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';

// DELETE /api/auth/sessions/:id — one of the member's sessions ends
export const DELETE = route(operations.endSession, async ({ rt, principal, params, ip }) => {
  await endSession(rt, principal, params.id, ip);
  return noContent();
});
