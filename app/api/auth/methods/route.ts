import { api } from '@/lib/http/next-link';

// /api/auth/methods: lib/http/api/auth/methods.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/methods', 'GET');
