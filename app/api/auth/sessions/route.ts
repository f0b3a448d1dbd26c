import { api } from '@/lib/http/next-link';

// /api/auth/sessions: lib/http/api/auth/sessions.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/sessions', 'GET');
export const DELETE = api('auth/sessions', 'DELETE');
