import { manifestResponse } from '@/lib/pwa/manifest';

export const dynamic = 'force-static';

// GET /files/manifest.webmanifest — the installable file-sharing app (with its share target)
export const GET = () => manifestResponse('files');
