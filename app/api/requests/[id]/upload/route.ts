import { api } from '@/lib/http/next-link';

// /api/requests/[id]/upload: lib/http/api/requests/[id]/upload.ts through the one server (lib/http/next-link.ts)
export const POST = api('requests/[id]/upload', 'POST');
