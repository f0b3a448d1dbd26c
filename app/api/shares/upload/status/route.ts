import { api } from '@/lib/http/next-link';

// /api/shares/upload/status: lib/http/api/shares/upload/status.ts through the one server (lib/http/next-link.ts)
export const POST = api('shares/upload/status', 'POST');
