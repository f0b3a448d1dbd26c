import { serveHosted } from '@/lib/hosting/serve-hosted';
import { fromWeb, toWebResponse } from '@/lib/http/fast';
import { clientIp } from '@/lib/http/route';
import { getRuntime } from '@/lib/runtime';

// GET|HEAD|POST /p/* — only reached under plain `next start`; server.ts answers these itself
async function handle(req: Request): Promise<Response> {
  const rt = await getRuntime();
  return toWebResponse(await serveHosted(fromWeb(req, clientIp(rt, req.headers))), req.method);
}

export const GET = handle;
export const HEAD = handle;
export const POST = handle;
