import { api } from '@/lib/http/next-link';

// /api/auth/login: lib/http/api/auth/login.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/login', 'POST');
