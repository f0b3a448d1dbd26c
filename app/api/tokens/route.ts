import { api } from '@/lib/http/next-link';

// /api/tokens: lib/http/api/tokens.ts through the one server (lib/http/next-link.ts)
export const GET = api('tokens', 'GET');
export const POST = api('tokens', 'POST');
