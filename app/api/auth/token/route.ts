import { api } from '@/lib/http/next-link';

// /api/auth/token: lib/http/api/auth/token.ts through the one server (lib/http/next-link.ts)
export const PATCH = api('auth/token', 'PATCH');
