import { api } from '@/lib/http/next-link';

// /api/auth/oidc/start: lib/http/api/auth/oidc/start.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/oidc/start', 'GET');
