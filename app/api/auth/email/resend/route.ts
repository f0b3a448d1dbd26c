import { api } from '@/lib/http/next-link';

// /api/auth/email/resend: lib/http/api/auth/email/resend.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/email/resend', 'POST');
