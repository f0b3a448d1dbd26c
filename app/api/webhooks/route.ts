import { api } from '@/lib/http/next-link';

// /api/webhooks: lib/http/api/webhooks.ts through the one server (lib/http/next-link.ts)
export const GET = api('webhooks', 'GET');
export const POST = api('webhooks', 'POST');
