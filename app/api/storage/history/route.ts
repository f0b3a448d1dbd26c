import { api } from '@/lib/http/next-link';

// /api/storage/history: lib/http/api/storage/history.ts through the one server (lib/http/next-link.ts)
export const GET = api('storage/history', 'GET');
