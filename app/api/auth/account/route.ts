import { api } from '@/lib/http/next-link';

// /api/auth/account: lib/http/api/auth/account.ts through the one server (lib/http/next-link.ts)
export const DELETE = api('auth/account', 'DELETE');
