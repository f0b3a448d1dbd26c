import { api } from '@/lib/http/next-link';

// /api/concepts/[id]: lib/http/api/concepts/[id].ts through the one server (lib/http/next-link.ts)
export const GET = api('concepts/[id]', 'GET');
export const PUT = api('concepts/[id]', 'PUT');
export const DELETE = api('concepts/[id]', 'DELETE');
