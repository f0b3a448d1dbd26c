import { api } from '@/lib/http/next-link';

// /api/auth/passkeys/options: lib/http/api/auth/passkeys/options.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/passkeys/options', 'POST');
