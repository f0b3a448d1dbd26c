import { pollHandoff } from '@/lib/auth/cli-handoff';
import { clientOf } from '@/lib/http/sign-in-response';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// POST /api/auth/cli/handoff/poll — the CLI's wait: pending, then once the approved member's session
export const POST = route(operations.pollCliHandoff, async ({ rt, req, body, ip }) => {
  return json(await pollHandoff(rt, body, clientOf(req, ip)));
});
