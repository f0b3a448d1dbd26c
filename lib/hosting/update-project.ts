import 'server-only';
import { updateProjectSettings, type ProjectPatch } from '@/db/queries/projects';
import { hashPassword } from '../auth/passwords';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { getProjectDtoOrThrow } from './list-projects';
import type { ProjectDto } from './project-dto';
import { isValidSlug } from './slug';
import { setProjectDomains } from '@/db/queries/domains';
import { domainTaken, normalizeDomains } from './domains';

/** PATCH /api/projects/:slug — note, password (null or "" clears it), SPA mode, dotfiles, custom domains ([] clears). */
export async function updateProject(
  rt: Runtime,
  slug: string,
  input: { note?: string; password?: string | null; spa?: boolean; allow_dotfiles?: boolean; domains?: string[] },
  /** Who sets the password (lib/auth/password-setting.ts: setterKey). */
  by: string,
): Promise<ProjectDto> {
  if (!isValidSlug(slug)) throw notFound('No such project');
  // Domains first: a 409 changes nothing.
  if (input.domains !== undefined) {
    const done = await setProjectDomains(rt.db, slug, normalizeDomains(rt, input.domains));
    if (done === 'no-project') throw notFound('No such project');
    if (done !== 'ok') throw domainTaken(done.taken);
  }
  const patch: ProjectPatch = {};
  if (input.note !== undefined) patch.note = input.note;
  if (input.password !== undefined) patch.passwordHash = input.password ? await hashPassword(input.password, by) : null;
  if (input.spa !== undefined) patch.spa = input.spa;
  if (input.allow_dotfiles !== undefined) patch.allowDotfiles = input.allow_dotfiles;
  if (!(await updateProjectSettings(rt.db, slug, patch))) throw notFound('No such project');
  return getProjectDtoOrThrow(rt, slug);
}
