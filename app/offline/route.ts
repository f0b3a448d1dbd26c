import { api } from '@/lib/http/next-link';

// /offline: lib/http/pages/offline.ts through the one server (lib/http/next-link.ts)
export const GET = api('offline', 'GET');
