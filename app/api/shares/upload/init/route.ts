import { initSchema } from '@/lib/contract/shares';
import { json, route } from '@/lib/http/route';
import { ownOrigin } from '@/lib/http/origin';
import { initUpload } from '@/lib/shares/init-upload';

// POST /api/shares/upload/init — checks limits and quota, creates the offline group and uploads
export const POST = route({ auth: 'session', body: initSchema }, async ({ rt, req, principal, body }) =>
  json(await initUpload(rt, principal!, body, req.headers.get('origin') ?? ownOrigin(rt.env, req.headers, req.url)), 201),
);
