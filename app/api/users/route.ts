import { api } from '@/lib/http/next-link';

// /api/users: lib/http/api/users.ts through the one server (lib/http/next-link.ts)
export const GET = api('users', 'GET');
export const POST = api('users', 'POST');
