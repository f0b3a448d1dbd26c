import 'server-only';
import {
  deleteHostedFileRow,
  deleteProjectRow,
  findProject,
  listProjectsWithFiles,
  setHostedFileStatus,
  updateProjectRow,
} from '@/db/queries/hosting';
import { hashPassword } from '../auth/passwords';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions, scheduleDeletion } from '../storage/gc';
import { hostedBatchPrefixOf } from '../storage/keys';
import { toFileDto, toProjectDto, type FileDto, type ProjectDto } from './project-dto';
import { invalidateSite } from './site-cache';
import { isValidSlug } from './slug';

export async function listProjects(rt: Runtime): Promise<ProjectDto[]> {
  return (await listProjectsWithFiles(rt.db)).map((r) => toProjectDto(r.project, r.files));
}

async function getProjectDtoOrThrow(rt: Runtime, slug: string): Promise<ProjectDto> {
  const [row] = isValidSlug(slug) ? await listProjectsWithFiles(rt.db, slug) : [];
  if (!row) throw notFound('No such project');
  return toProjectDto(row.project, row.files);
}

/** Note and/or password; a null or empty password clears it. */
export async function updateProject(
  rt: Runtime,
  slug: string,
  input: { note?: string; password?: string | null },
): Promise<ProjectDto> {
  if (!isValidSlug(slug) || !(await findProject(rt.db, slug))) throw notFound('No such project');
  const patch: { note?: string; passwordHash?: string | null } = {};
  if (input.note !== undefined) patch.note = input.note;
  if (input.password !== undefined) patch.passwordHash = input.password ? await hashPassword(input.password) : null;
  if (Object.keys(patch).length) await updateProjectRow(rt.db, slug, patch);
  invalidateSite(slug);
  return getProjectDtoOrThrow(rt, slug);
}

export async function setFileStatus(rt: Runtime, id: string, status: 'online' | 'offline'): Promise<FileDto> {
  const row = await setHostedFileStatus(rt.db, id, status);
  if (!row) throw notFound('No such file');
  invalidateSite(row.slug);
  return toFileDto(row);
}

/** Records and their deletion job in one transaction; then the bytes go. */
export async function deleteProject(rt: Runtime, slug: string): Promise<void> {
  if (!isValidSlug(slug)) throw notFound('No such project');
  const ids = await rt.db.transaction(async (tx) => {
    const keys = await deleteProjectRow(tx, slug);
    if (keys === null) throw notFound('No such project');
    return scheduleDeletion(tx, [...new Set(keys.map(hostedBatchPrefixOf))]);
  });
  invalidateSite(slug);
  await runDeletions(rt, ids);
}

export async function deleteFile(rt: Runtime, id: string): Promise<void> {
  const { row, ids } = await rt.db.transaction(async (tx) => {
    const deleted = await deleteHostedFileRow(tx, id);
    if (!deleted) throw notFound('No such file');
    return { row: deleted, ids: await scheduleDeletion(tx, [deleted.storageKey]) };
  });
  invalidateSite(row.slug);
  await runDeletions(rt, ids);
}

export { getProjectDtoOrThrow };
