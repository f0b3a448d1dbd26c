import { operations } from '@/lib/contract/operations';
import { listProjects } from '@/lib/hosting/list-projects';
import { json, route } from '@/lib/http/route';

// GET /api/files — every hosted project with the files of its live deploy
export const GET = route(operations.listProjects, async ({ rt }) => json({ projects: await listProjects(rt) }));
