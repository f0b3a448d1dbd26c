import { api } from '@/lib/http/next-link';

// /api/auth/logout: lib/http/api/auth/logout.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/logout', 'POST');
