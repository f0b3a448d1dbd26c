import { operations } from '@/lib/contract/operations';
import { tlsAsk } from '@/lib/hosting/domains';
import { json, route } from '@/lib/http/route';

// GET /api/tls/ask — 200 when ?domain= is a project's custom domain, else 404 (Caddy's on-demand TLS ask)
export const GET = route(operations.tlsAsk, async ({ rt, query }) => json(await tlsAsk(rt, query.domain)));
