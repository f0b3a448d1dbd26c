import { api } from '@/lib/http/next-link';

// /api/projects/[slug]/deploys: lib/http/api/projects/[slug]/deploys.ts through the one server (lib/http/next-link.ts)
export const GET = api('projects/[slug]/deploys', 'GET');
