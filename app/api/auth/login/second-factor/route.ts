import { api } from '@/lib/http/next-link';

// /api/auth/login/second-factor: lib/http/api/auth/login/second-factor.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/login/second-factor', 'POST');
