import 'server-only';
import { changeLiveFileStatus, removeLiveFile } from '@/db/queries/hosted-files';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { compressedKey } from '../storage/keys';
import { parseEncodings } from './compression';
import { toFileDto, type FileDto } from './project-dto';

/** PATCH /api/status — one file of a live deploy online or offline, in every deploy holding its object. */
export async function setFileStatus(rt: Runtime, id: string, status: 'online' | 'offline'): Promise<FileDto> {
  const row = await changeLiveFileStatus(rt.db, id, status);
  if (!row) throw notFound('No such file');
  return toFileDto(row);
}

/**
 * DELETE /api/files/:id — drops a file from the live deploy and from every deploy of the project
 * holding its object, so neither a preview nor a rollback serves it again (issue 39, item 10 b);
 * the object goes unless another project's deploy uses it.
 */
export async function deleteFile(rt: Runtime, id: string): Promise<void> {
  const ids = await removeLiveFile(rt.db, id, (file) => [
    file.storageKey,
    ...parseEncodings(file.encodings).map((e) => compressedKey(file.storageKey, e.encoding)),
  ]);
  if (!ids) throw notFound('No such file');
  await runDeletions(rt, ids);
}
