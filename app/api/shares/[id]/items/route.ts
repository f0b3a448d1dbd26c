import { api } from '@/lib/http/next-link';

// /api/shares/[id]/items: lib/http/api/shares/[id]/items.ts through the one server (lib/http/next-link.ts)
export const DELETE = api('shares/[id]/items', 'DELETE');
