import { api } from '@/lib/http/next-link';

// /api/projects/[slug]: lib/http/api/projects/[slug].ts through the one server (lib/http/next-link.ts)
export const GET = api('projects/[slug]', 'GET');
export const PATCH = api('projects/[slug]', 'PATCH');
export const DELETE = api('projects/[slug]', 'DELETE');
