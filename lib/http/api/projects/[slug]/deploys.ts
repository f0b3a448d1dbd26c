import { operations } from '@/lib/contract/operations';
import { listDeploys } from '@/lib/hosting/deploys';
import { json, route } from '@/lib/http/route';

// GET /api/projects/:slug/deploys — the project's kept deploys, newest first, the live one marked
export const GET = route(operations.listDeploys, async ({ rt, params }) => json({ deploys: await listDeploys(rt, params.slug) }));
