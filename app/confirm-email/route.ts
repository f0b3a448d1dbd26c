import { api } from '@/lib/http/next-link';

// /confirm-email: lib/http/pages/confirm-email.ts through the one server (lib/http/next-link.ts)
export const GET = api('confirm-email', 'GET');
export const POST = api('confirm-email', 'POST');
