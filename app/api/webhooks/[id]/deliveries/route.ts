import { api } from '@/lib/http/next-link';

// /api/webhooks/[id]/deliveries: lib/http/api/webhooks/[id]/deliveries.ts through the one server (lib/http/next-link.ts)
export const GET = api('webhooks/[id]/deliveries', 'GET');
