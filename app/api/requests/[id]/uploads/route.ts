import { api } from '@/lib/http/next-link';

// /api/requests/[id]/uploads: lib/http/api/requests/[id]/uploads.ts through the one server (lib/http/next-link.ts)
export const DELETE = api('requests/[id]/uploads', 'DELETE');
