import { api } from '@/lib/http/next-link';

// /api/concepts: lib/http/api/concepts.ts through the one server (lib/http/next-link.ts)
export const GET = api('concepts', 'GET');
export const POST = api('concepts', 'POST');
