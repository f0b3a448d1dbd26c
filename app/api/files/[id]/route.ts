import { api } from '@/lib/http/next-link';

// /api/files/[id]: lib/http/api/files/[id].ts through the one server (lib/http/next-link.ts)
export const DELETE = api('files/[id]', 'DELETE');
