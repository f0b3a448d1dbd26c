import { api } from '@/lib/http/next-link';

// /api/audit: lib/http/api/audit.ts through the one server (lib/http/next-link.ts)
export const GET = api('audit', 'GET');
