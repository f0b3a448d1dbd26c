import { startCliHandoff } from '@/lib/auth/cli-handoff';
import { operations } from '@/lib/contract/operations';
import { ownOrigin } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';

// POST /api/auth/cli/handoff — `htmls login --sso`: a hand-off for the CLI to poll and the page to approve it
export const POST = route(operations.startCliHandoff, async ({ rt, req, ip }) => {
  return json(await startCliHandoff(rt, ip, ownOrigin(rt.env, req.headers, req.url)), 201);
});
