import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';
import { getDefaultQuota, setDefaultQuota } from '@/lib/users/default-quota';

// GET /api/settings — the default quota for new registrations (administrator)
export const GET = route(operations.getSettings, async ({ rt }) => json({ default_quota_bytes: await getDefaultQuota(rt) }));

// PATCH /api/settings — change the default quota; existing users keep theirs
export const PATCH = route(operations.updateSettings, async ({ rt, body }) =>
  json({ default_quota_bytes: await setDefaultQuota(rt, body.default_quota_bytes) }),
);
