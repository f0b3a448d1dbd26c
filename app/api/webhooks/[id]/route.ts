import { api } from '@/lib/http/next-link';

// /api/webhooks/[id]: lib/http/api/webhooks/[id].ts through the one server (lib/http/next-link.ts)
export const PATCH = api('webhooks/[id]', 'PATCH');
export const DELETE = api('webhooks/[id]', 'DELETE');
