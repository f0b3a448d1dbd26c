import { api } from '@/lib/http/next-link';

// /api/shares/[id]/activity: lib/http/api/shares/[id]/activity.ts through the one server (lib/http/next-link.ts)
export const GET = api('shares/[id]/activity', 'GET');
