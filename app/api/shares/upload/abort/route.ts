import { api } from '@/lib/http/next-link';

// /api/shares/upload/abort: lib/http/api/shares/upload/abort.ts through the one server (lib/http/next-link.ts)
export const POST = api('shares/upload/abort', 'POST');
