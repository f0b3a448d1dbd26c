import { completeSchema } from '@/lib/contract/shares';
import { json, route } from '@/lib/http/route';
import { completeUpload } from '@/lib/shares/complete-upload';

// POST /api/shares/upload/complete — merges the parts the store holds and publishes the share
export const POST = route({ auth: 'session', body: completeSchema, maxBodyBytes: 8 * 1024 * 1024 }, async ({ rt, principal, body }) =>
  json({ share: await completeUpload(rt, principal!, body) }),
);
