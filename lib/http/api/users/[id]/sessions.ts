import { endMemberSessions } from '@/lib/auth/session-list';
import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';

// DELETE /api/users/:id/sessions — a member is signed out everywhere (administrator)
export const DELETE = route(operations.endUserSessions, async ({ rt, params }) => {
  await endMemberSessions(rt, params.id);
  return noContent();
});
