import { updateProjectSchema } from '@/lib/contract/hosting';
import { deleteProject, updateProject } from '@/lib/hosting/manage-projects';
import { json, noContent, route } from '@/lib/http/route';

// PATCH /api/projects/:slug — change the note and/or the password (null or "" clears it)
export const PATCH = route({ auth: 'admin', body: updateProjectSchema }, async ({ rt, params, body }) =>
  json({ project: await updateProject(rt, params.slug, body) }),
);

// DELETE /api/projects/:slug — delete the project, its files and their bytes
export const DELETE = route({ auth: 'admin' }, async ({ rt, params }) => {
  await deleteProject(rt, params.slug);
  return noContent();
});
