import { json, route } from '@/lib/http/route';
import { ownOrigin } from '@/lib/http/origin';
import { capabilities } from '@/lib/shares/capabilities';

// GET /api/shares/upload/capabilities — direct or proxy mode, part size, parallelism, limits
export const GET = route({ auth: 'session' }, async ({ rt, req }) =>
  json(await capabilities(rt, req.headers.get('origin') ?? ownOrigin(rt.env, req.headers, req.url))),
);
