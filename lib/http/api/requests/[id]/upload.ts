import { requestUnlockCookie } from '@/lib/auth/unlock-cookie';
import { operations } from '@/lib/contract/operations';
import { parseCookies } from '@/lib/http/cookies';
import { ownOrigin } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';
import { initRequestUpload } from '@/lib/requests/guest-upload';

// POST /api/requests/:id/upload — a guest's init (no login): a share init plus its upload token
export const POST = route(operations.requestUpload, async ({ rt, req, params, ip, body }) =>
  json(
    await initRequestUpload(rt, params.id, body, {
      ip,
      // The page hands the unlock cookie's value in the body (the cookie's Path keeps it off /api).
      cookies: parseCookies(body.unlock ? `${requestUnlockCookie(params.id)}=${body.unlock}` : req.headers.get('cookie')),
      origin: req.headers.get('origin') ?? ownOrigin(rt.env, req.headers, req.url),
    }),
    201,
  ),
);
