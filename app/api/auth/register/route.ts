import { api } from '@/lib/http/next-link';

// /api/auth/register: lib/http/api/auth/register.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/register', 'POST');
