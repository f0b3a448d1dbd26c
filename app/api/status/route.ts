import { fileStatusSchema } from '@/lib/contract/hosting';
import { setFileStatus } from '@/lib/hosting/change-files';
import { json, route } from '@/lib/http/route';

// PATCH /api/status — set one hosted file online or offline
export const PATCH = route({ auth: 'admin', body: fileStatusSchema }, async ({ rt, body }) =>
  json({ file: await setFileStatus(rt, body.id, body.status) }),
);
