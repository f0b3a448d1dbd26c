import { api } from '@/lib/http/next-link';

// /api/projects/[slug]/domains: lib/http/api/projects/[slug]/domains.ts through the one server (lib/http/next-link.ts)
export const GET = api('projects/[slug]/domains', 'GET');
