import { api } from '@/lib/http/next-link';

// /api/auth/passkeys/login: lib/http/api/auth/passkeys/login.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/passkeys/login', 'POST');
