import { api } from '@/lib/http/next-link';

// /api/upload: lib/http/api/upload.ts through the one server (lib/http/next-link.ts)
export const POST = api('upload', 'POST');
