import { api } from '@/lib/http/next-link';

// /api/auth/passkeys: lib/http/api/auth/passkeys.ts through the one server (lib/http/next-link.ts)
export const GET = api('auth/passkeys', 'GET');
export const POST = api('auth/passkeys', 'POST');
