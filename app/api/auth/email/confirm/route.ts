import { api } from '@/lib/http/next-link';

// /api/auth/email/confirm: lib/http/api/auth/email/confirm.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/email/confirm', 'POST');
