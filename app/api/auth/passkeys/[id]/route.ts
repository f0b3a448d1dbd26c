import { api } from '@/lib/http/next-link';

// /api/auth/passkeys/[id]: lib/http/api/auth/passkeys/[id].ts through the one server (lib/http/next-link.ts)
export const PATCH = api('auth/passkeys/[id]', 'PATCH');
export const DELETE = api('auth/passkeys/[id]', 'DELETE');
