import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { completeUpload } from '@/lib/shares/complete-upload';

// POST /api/shares/upload/complete — merges the parts the store holds and publishes the share
export const POST = route(operations.completeUpload, async ({ rt, principal, body }) =>
  json({ share: await completeUpload(rt, principal!, body) }),
);
