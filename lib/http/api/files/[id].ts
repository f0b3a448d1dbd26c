import { uuidParam } from '@/lib/contract/hosting';
import { operations } from '@/lib/contract/operations';
import { notFound } from '@/lib/errors';
import { deleteFile } from '@/lib/hosting/change-files';
import { noContent, route } from '@/lib/http/route';

// DELETE /api/files/:id — delete one hosted file and its bytes
export const DELETE = route(operations.deleteFile, async ({ rt, params }) => {
  if (!uuidParam.safeParse(params.id).success) throw notFound('No such file');
  await deleteFile(rt, params.id);
  return noContent();
});
