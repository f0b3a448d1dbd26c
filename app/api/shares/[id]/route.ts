import { api } from '@/lib/http/next-link';

// /api/shares/[id]: lib/http/api/shares/[id].ts through the one server (lib/http/next-link.ts)
export const GET = api('shares/[id]', 'GET');
export const PATCH = api('shares/[id]', 'PATCH');
export const DELETE = api('shares/[id]', 'DELETE');
