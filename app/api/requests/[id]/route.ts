import { api } from '@/lib/http/next-link';

// /api/requests/[id]: lib/http/api/requests/[id].ts through the one server (lib/http/next-link.ts)
export const GET = api('requests/[id]', 'GET');
export const PATCH = api('requests/[id]', 'PATCH');
export const DELETE = api('requests/[id]', 'DELETE');
