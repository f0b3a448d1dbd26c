import { api } from '@/lib/http/next-link';

// /api/status: lib/http/api/status.ts through the one server (lib/http/next-link.ts)
export const PATCH = api('status', 'PATCH');
