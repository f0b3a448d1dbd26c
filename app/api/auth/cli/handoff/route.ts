import { api } from '@/lib/http/next-link';

// /api/auth/cli/handoff: lib/http/api/auth/cli/handoff.ts through the one server (lib/http/next-link.ts)
export const POST = api('auth/cli/handoff', 'POST');
