import { manifestResponse } from '@/lib/pwa/manifest';

export const dynamic = 'force-static';

// GET /htmls/manifest.webmanifest — the installable administrator's console
export const GET = () => manifestResponse('htmls');
