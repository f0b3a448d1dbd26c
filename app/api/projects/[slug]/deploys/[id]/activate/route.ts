import { api } from '@/lib/http/next-link';

// /api/projects/[slug]/deploys/[id]/activate: lib/http/api/projects/[slug]/deploys/[id]/activate.ts through the one server (lib/http/next-link.ts)
export const POST = api('projects/[slug]/deploys/[id]/activate', 'POST');
