import { approveHandoff } from '@/lib/auth/cli-handoff';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/cli/handoff/approve — the signed-in member hands the waiting CLI a session of their own
export const POST = route(operations.approveCliHandoff, async ({ rt, principal, body, ip }) => {
  await approveHandoff(rt, principal, body, ip);
  return json({ ok: true });
});
