import { api } from '@/lib/http/next-link';

// /api/auth/sessions/[id]: lib/http/api/auth/sessions/[id].ts through the one server (lib/http/next-link.ts)
export const DELETE = api('auth/sessions/[id]', 'DELETE');
