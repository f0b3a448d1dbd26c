import 'server-only';
import { getProjectWithFiles, listAllProjects } from '@/db/queries/projects';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { toProjectDto, type ProjectDto } from './project-dto';
import { isValidSlug } from './slug';

/** Every project with the files of its live deploy (GET /api/files). */
export async function listProjects(rt: Runtime): Promise<ProjectDto[]> {
  return (await listAllProjects(rt.db)).map((r) => toProjectDto(r.project, r.files));
}

export async function getProjectDtoOrThrow(rt: Runtime, slug: string): Promise<ProjectDto> {
  const row = isValidSlug(slug) ? await getProjectWithFiles(rt.db, slug) : null;
  if (!row) throw notFound('No such project');
  return toProjectDto(row.project, row.files);
}
