import { api } from '@/lib/http/next-link';

// /api/auth/totp/enable: lib/http/api/auth/totp/enable.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/totp/enable', 'POST');
