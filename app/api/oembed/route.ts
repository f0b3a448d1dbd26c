import { api } from '@/lib/http/next-link';

// /api/oembed: lib/http/api/oembed.ts through the one server (lib/http/next-link.ts)
export const GET = api('oembed', 'GET');
