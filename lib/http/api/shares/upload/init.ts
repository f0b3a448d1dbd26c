import { operations } from '@/lib/contract/operations';
import { ownOrigin } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';
import { initUpload } from '@/lib/shares/init-upload';

// POST /api/shares/upload/init — checks limits and quota, creates the offline group and uploads
export const POST = route(operations.initUpload, async ({ rt, req, principal, body }) =>
  json(await initUpload(rt, principal, body, req.headers.get('origin') ?? ownOrigin(rt.env, req.headers, req.url)), 201),
);
