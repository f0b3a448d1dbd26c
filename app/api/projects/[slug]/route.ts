import { operations } from '@/lib/contract/operations';
import { deleteProject } from '@/lib/hosting/delete-project';
import { updateProject } from '@/lib/hosting/update-project';
import { json, noContent, route } from '@/lib/http/route';

// PATCH /api/projects/:slug — change the note, the password (null or "" clears it), SPA mode or dotfiles
export const PATCH = route(operations.updateProject, async ({ rt, params, body }) =>
  json({ project: await updateProject(rt, params.slug, body) }),
);

// DELETE /api/projects/:slug — delete the project, every deploy and their bytes
export const DELETE = route(operations.deleteProject, async ({ rt, params }) => {
  await deleteProject(rt, params.slug);
  return noContent();
});
