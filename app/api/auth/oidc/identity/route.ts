import { api } from '@/lib/http/next-link';

// /api/auth/oidc/identity: lib/http/api/auth/oidc/identity.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/oidc/identity', 'GET');
export const DELETE = api('auth/oidc/identity', 'DELETE');
