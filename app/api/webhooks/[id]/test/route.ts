import { api } from '@/lib/http/next-link';

// /api/webhooks/[id]/test: lib/http/api/webhooks/[id]/test.ts through the one server (lib/http/next-link.ts)
export const POST = api('webhooks/[id]/test', 'POST');
