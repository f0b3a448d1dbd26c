import { api } from '@/lib/http/next-link';

// /api/requests: lib/http/api/requests.ts through the one server (lib/http/next-link.ts)
export const GET = api('requests', 'GET');
export const POST = api('requests', 'POST');
