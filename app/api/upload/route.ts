import { uploadProject } from '@/lib/hosting/upload-project';
import { json, route } from '@/lib/http/route';

// POST /api/upload — multipart upload of a site (streamed), new project or append
export const POST = route({ auth: 'admin' }, async ({ rt, req }) => json({ project: await uploadProject(rt, req) }, 201));
