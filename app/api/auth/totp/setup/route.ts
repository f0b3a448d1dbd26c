import { api } from '@/lib/http/next-link';

// /api/auth/totp/setup: lib/http/api/auth/totp/setup.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/totp/setup', 'POST');
