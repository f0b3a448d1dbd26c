import { operations } from '@/lib/contract/operations';
import { checkProjectDomains } from '@/lib/hosting/domain-dns';
import { json, route } from '@/lib/http/route';

// GET /api/projects/:slug/domains — each custom domain's DNS answer, and whether it points here
export const GET = route(operations.checkProjectDomains, async ({ rt, params, req }) => json(await checkProjectDomains(rt, params.slug, req.headers.get('host') ?? undefined)));
