import { api } from '@/lib/http/next-link';

// /api/files: lib/http/api/files.ts through the one server (lib/http/next-link.ts)
export const GET = api('files', 'GET');
