import 'server-only';
import { activateProjectDeploy, listDeploys as listDeployRows } from '@/db/queries/deploys';
import { findProject } from '@/db/queries/projects';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { getProjectDtoOrThrow } from './list-projects';
import { previewQuery } from './preview-access';
import { toDeployDto, type DeployDto, type ProjectDto } from './project-dto';
import { isValidSlug } from './slug';

/** GET /api/projects/:slug/deploys — newest first, the live one marked; each `url` the administrator's preview link. */
export async function listDeploys(rt: Runtime, slug: string): Promise<DeployDto[]> {
  const project = isValidSlug(slug) ? await findProject(rt.db, slug) : null;
  if (!project) throw notFound('No such project');
  const rows = await listDeployRows(rt.db, slug);
  return Promise.all(
    rows.map(async (d) => {
      const dto = toDeployDto(d, project.activeDeployId);
      return { ...dto, url: `${dto.url}?${await previewQuery(rt, slug, d.id)}` };
    }),
  );
}

/** POST /api/projects/:slug/deploys/:id/activate — roll back (or forward) to a kept deploy, at once. */
export async function activateDeploy(rt: Runtime, slug: string, id: string): Promise<ProjectDto> {
  if (!isValidSlug(slug)) throw notFound('No such project');
  const result = await activateProjectDeploy(rt.db, slug, id);
  if (result === 'no-project') throw notFound('No such project');
  if (result === 'no-deploy') throw notFound('No such deploy');
  return getProjectDtoOrThrow(rt, slug);
}
