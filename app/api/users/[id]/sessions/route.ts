import { api } from '@/lib/http/next-link';

// /api/users/[id]/sessions: lib/http/api/users/[id]/sessions.ts through the one server (lib/http/next-link.ts)
export const DELETE = api('users/[id]/sessions', 'DELETE');
