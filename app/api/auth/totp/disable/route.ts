import { api } from '@/lib/http/next-link';

// /api/auth/totp/disable: lib/http/api/auth/totp/disable.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/totp/disable', 'POST');
