import { api } from '@/lib/http/next-link';

// /api/tokens/[id]: lib/http/api/tokens/[id].ts through the one server (lib/http/next-link.ts)
export const DELETE = api('tokens/[id]', 'DELETE');
