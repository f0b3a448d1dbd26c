import { api } from '@/lib/http/next-link';

// /api/auth/me: lib/http/api/auth/me.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/me', 'GET');
