import { operations } from '@/lib/contract/operations';
import { activateDeploy } from '@/lib/hosting/deploys';
import { json, route } from '@/lib/http/route';

// POST /api/projects/:slug/deploys/:id/activate — make a kept deploy live (rollback)
export const POST = route(operations.activateDeploy, async ({ rt, params }) => json({ project: await activateDeploy(rt, params.slug, params.id) }));
