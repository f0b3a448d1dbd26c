import { api } from '@/lib/http/next-link';

// /api/auth/oidc/callback: lib/http/api/auth/oidc/callback.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/oidc/callback', 'GET');
