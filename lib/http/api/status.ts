import { operations } from '@/lib/contract/operations';
import { setFileStatus } from '@/lib/hosting/change-files';
import { json, route } from '@/lib/http/route';

// PATCH /api/status — set one hosted file online or offline
export const PATCH = route(operations.setFileStatus, async ({ rt, body, auditAs }) => {
  const file = await setFileStatus(rt, body.id, body.status);
  auditAs(`${file.slug}/${file.path}`);
  return json({ file });
});
