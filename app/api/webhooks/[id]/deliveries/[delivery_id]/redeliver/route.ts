import { api } from '@/lib/http/next-link';

// /api/webhooks/[id]/deliveries/[delivery_id]/redeliver: lib/http/api/webhooks/[id]/deliveries/[delivery_id]/redeliver.ts through the one server (lib/http/next-link.ts)
export const POST = api('webhooks/[id]/deliveries/[delivery_id]/redeliver', 'POST');
