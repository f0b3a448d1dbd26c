import { api } from '@/lib/http/next-link';

// /api/auth/check: lib/http/api/auth/check.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/check', 'GET');
