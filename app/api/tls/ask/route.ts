import { api } from '@/lib/http/next-link';

// /api/tls/ask: lib/http/api/tls/ask.ts through the one server (lib/http/next-link.ts)
export const GET = api('tls/ask', 'GET');
