import { operations } from '@/lib/contract/operations';
import { noContent, route } from '@/lib/http/route';
import { setBrowserPoster } from '@/lib/shares/browser-poster';

// POST /api/shares/:id/poster — a video's poster frame from its uploader's browser (no ffmpeg on the server)
export const POST = route(operations.setSharePoster, async ({ rt, principal, params, body }) => {
  await setBrowserPoster(rt, principal, params.id, body);
  return noContent();
});
