import type { FastReply, FastRequest } from '../http/fast';
import { textReply } from '../http/fast';

/** /f/<id>/<path>: shared files. Filled in by the shares work; until then nothing is shared. */
export async function serveShareItem(_req: FastRequest): Promise<FastReply> {
  return textReply(404, 'Not found');
}
