import { operations } from '@/lib/contract/operations';
import { ownOrigin } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';
import { capabilities } from '@/lib/shares/capabilities';

// GET /api/shares/upload/capabilities — direct or proxy mode, part size, parallelism, limits
export const GET = route(operations.uploadCapabilities, async ({ rt, req }) =>
  json(await capabilities(rt, req.headers.get('origin') ?? ownOrigin(rt.env, req.headers, req.url))),
);
