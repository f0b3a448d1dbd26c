import { operations } from '@/lib/contract/operations';
import { deleteProject } from '@/lib/hosting/delete-project';
import { getProjectDtoOrThrow } from '@/lib/hosting/list-projects';
import { updateProject } from '@/lib/hosting/update-project';
import { setterKey } from '@/lib/auth/password-setting';
import { json, noContent, route } from '@/lib/http/route';

// GET /api/projects/:slug — the project with the files of its live deploy
export const GET = route(operations.getProject, async ({ rt, params }) => json({ project: await getProjectDtoOrThrow(rt, params.slug) }));

// PATCH /api/projects/:slug — change the note, the password (null or "" clears it), SPA mode or dotfiles
export const PATCH = route(operations.updateProject, async ({ rt, params, body, principal }) =>
  json({ project: await updateProject(rt, params.slug, body, setterKey(principal)) }),
);

// DELETE /api/projects/:slug — delete the project, every deploy and their bytes
export const DELETE = route(operations.deleteProject, async ({ rt, params }) => {
  await deleteProject(rt, params.slug);
  return noContent();
});
