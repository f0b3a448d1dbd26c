import { operations } from '@/lib/contract/operations';
import { listProjects } from '@/lib/hosting/list-projects';
import { json, route } from '@/lib/http/route';

// GET /api/files — a page of hosted projects, newest first, with counts (GET /api/projects/:slug has the files)
export const GET = route(operations.listProjects, async ({ rt, query }) => json(await listProjects(rt, query)));
