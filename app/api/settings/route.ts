import { api } from '@/lib/http/next-link';

// /api/settings: lib/http/api/settings.ts through the one server (lib/http/next-link.ts)
export const GET = api('settings', 'GET');
export const PATCH = api('settings', 'PATCH');
