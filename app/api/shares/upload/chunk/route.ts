import { fromWeb, toWebResponse } from '@/lib/http/fast';
import { clientIp } from '@/lib/http/route';
import { getRuntime } from '@/lib/runtime';
import { handleChunk } from '@/lib/shares/chunk-handler';

// PUT /api/shares/upload/chunk — only reached under plain `next start`; server.ts answers it itself
export async function PUT(req: Request): Promise<Response> {
  const rt = await getRuntime();
  return toWebResponse(await handleChunk(fromWeb(req, clientIp(rt, req.headers))), 'PUT');
}
