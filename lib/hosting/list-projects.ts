import 'server-only';
import { pageProjects } from '@/db/queries/lists';
import { getProjectWithFiles } from '@/db/queries/projects';
import { domainsOf } from '@/db/queries/domains';
import type { ListQuery } from '../contract/lists';
import { notFound } from '../errors';
import { encodeCursor, pageQueryOf } from '../lists/page-cursor';
import type { Runtime } from '../runtime';
import { toProjectDto, toProjectSummaryDto, type ProjectDto, type ProjectSummaryDto } from './project-dto';
import { isValidSlug } from './slug';

/** GET /api/files: a page of projects, newest first, with counts but not files. */
export async function listProjects(rt: Runtime, query: ListQuery): Promise<{ projects: ProjectSummaryDto[]; next_cursor: string | null }> {
  const page = await pageProjects(rt.db, pageQueryOf(query));
  const domains = await domainsOf(rt.db, page.rows.map((r) => r.project.slug));
  return { projects: page.rows.map((r) => toProjectSummaryDto(r, domains.get(r.project.slug) ?? [])), next_cursor: encodeCursor(page.next) };
}

/** GET /api/projects/:slug (and every change's answer): the project with its live deploy's files. */
export async function getProjectDtoOrThrow(rt: Runtime, slug: string): Promise<ProjectDto> {
  const row = isValidSlug(slug) ? await getProjectWithFiles(rt.db, slug) : null;
  if (!row) throw notFound('No such project');
  const domains = await domainsOf(rt.db, [slug]);
  return toProjectDto(row.project, row.files, domains.get(slug) ?? []);
}
