import { api } from '@/lib/http/next-link';

// /api/openapi.json: lib/http/api/openapi.json.ts through the one server (lib/http/next-link.ts)
export const GET = api('openapi.json', 'GET');
