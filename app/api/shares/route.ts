import { api } from '@/lib/http/next-link';

// /api/shares: lib/http/api/shares.ts through the one server (lib/http/next-link.ts)
export const GET = api('shares', 'GET');
