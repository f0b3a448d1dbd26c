import { operations } from '@/lib/contract/operations';
import { ownOrigin } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';
import { initRequestUpload } from '@/lib/requests/guest-upload';

// POST /api/requests/:id/upload — a guest's init (no login): a share init plus its upload token
export const POST = route(operations.requestUpload, async ({ rt, req, params, ip, body }) =>
  json(
    await initRequestUpload(rt, params.id, body, {
      ip,
      cookie: req.headers.get('cookie'),
      origin: req.headers.get('origin') ?? ownOrigin(rt.env, req.headers, req.url),
    }),
    201,
  ),
);
