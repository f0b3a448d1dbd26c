import { api } from '@/lib/http/next-link';

// /api/auth/password: lib/http/api/auth/password.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/password', 'POST');
