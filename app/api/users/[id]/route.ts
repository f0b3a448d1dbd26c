import { api } from '@/lib/http/next-link';

// /api/users/[id]: lib/http/api/users/[id].ts through the one server (lib/http/next-link.ts)
export const PATCH = api('users/[id]', 'PATCH');
export const DELETE = api('users/[id]', 'DELETE');
