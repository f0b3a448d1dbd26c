import { api } from '@/lib/http/next-link';

// /api/auth/profile: lib/http/api/auth/profile.ts through the one server (lib/http/next-link.ts)
export const PATCH = api('auth/profile', 'PATCH');
