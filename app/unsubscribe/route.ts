import { api } from '@/lib/http/next-link';

// /unsubscribe: lib/http/pages/unsubscribe.ts through the one server (lib/http/next-link.ts)
export const GET = api('unsubscribe', 'GET');
export const POST = api('unsubscribe', 'POST');
