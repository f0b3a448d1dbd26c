import { operations } from '@/lib/contract/operations';
import { uploadProject } from '@/lib/hosting/upload-project';
import { json, route } from '@/lib/http/route';

// POST /api/upload — multipart upload of a site or one .zip (streamed): a new deploy of a new project, an append or a replace
export const POST = route(operations.uploadSite, async ({ rt, req, principal }) => json(await uploadProject(rt, req, principal), 201));
