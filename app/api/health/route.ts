import { api } from '@/lib/http/next-link';

// /api/health: lib/http/api/health.ts through the one server (lib/http/next-link.ts)
export const GET = api('health', 'GET');
