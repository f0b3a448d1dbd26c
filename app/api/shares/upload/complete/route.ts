import { api } from '@/lib/http/next-link';

// /api/shares/upload/complete: lib/http/api/shares/upload/complete.ts through the one server (lib/http/next-link.ts)
export const POST = api('shares/upload/complete', 'POST');
