import { api } from '@/lib/http/next-link';

// /api/shares/upload/capabilities: lib/http/api/shares/upload/capabilities.ts through the one server (lib/http/next-link.ts)
export const GET = api('shares/upload/capabilities', 'GET');
