import { listProjects } from '@/lib/hosting/manage-projects';
import { json, route } from '@/lib/http/route';

// GET /api/files — every hosted project with its files
export const GET = route({ auth: 'admin' }, async ({ rt }) => json({ projects: await listProjects(rt) }));
