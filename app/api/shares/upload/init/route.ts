import { api } from '@/lib/http/next-link';

// /api/shares/upload/init: lib/http/api/shares/upload/init.ts through the one server (lib/http/next-link.ts)
export const POST = api('shares/upload/init', 'POST');
