import 'server-only';
import { changeLiveFileStatus, removeLiveFile } from '@/db/queries/hosted-files';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { compressedKey } from '../storage/keys';
import { parseEncodings } from './compression';
import { toFileDto, type FileDto } from './project-dto';

/** PATCH /api/status — one file of a live deploy online or offline. */
export async function setFileStatus(rt: Runtime, id: string, status: 'online' | 'offline'): Promise<FileDto> {
  const row = await changeLiveFileStatus(rt.db, id, status);
  if (!row) throw notFound('No such file');
  return toFileDto(row);
}

/**
 * DELETE /api/files/:id — drops a file from the live deploy. Its object goes only when no
 * other kept deploy still uses it (an older deploy may be rolled back to).
 */
export async function deleteFile(rt: Runtime, id: string): Promise<void> {
  const ids = await removeLiveFile(rt.db, id, (file) => [
    file.storageKey,
    ...parseEncodings(file.encodings).map((e) => compressedKey(file.storageKey, e.encoding)),
  ]);
  if (!ids) throw notFound('No such file');
  await runDeletions(rt, ids);
}
