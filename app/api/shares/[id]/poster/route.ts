import { api } from '@/lib/http/next-link';

// /api/shares/[id]/poster: lib/http/api/shares/[id]/poster.ts through the one server (lib/http/next-link.ts)
export const POST = api('shares/[id]/poster', 'POST');
