import { api } from '@/lib/http/next-link';

// /api/shares/upload/part-url: lib/http/api/shares/upload/part-url.ts through the one server (lib/http/next-link.ts)
export const POST = api('shares/upload/part-url', 'POST');
