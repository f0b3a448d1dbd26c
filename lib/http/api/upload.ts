import { operations } from '@/lib/contract/operations';
import { uploadProject } from '@/lib/hosting/upload-project';
import { json, route } from '@/lib/http/route';

// POST /api/upload — multipart upload of a site or one .zip (streamed): a new deploy of a new project, an append or a replace
export const POST = route(operations.uploadSite, async ({ rt, req, principal, auditAs }) => {
  const done = await uploadProject(rt, req, principal);
  auditAs(done.project.slug);
  return json(done, 201);
});
