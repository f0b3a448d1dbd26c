import { settingsSchema } from '@/lib/contract/users';
import { json, route } from '@/lib/http/route';
import { getDefaultQuota, setDefaultQuota } from '@/lib/users/default-quota';

// GET /api/settings — the default quota for new registrations (administrator)
export const GET = route({ auth: 'admin' }, async ({ rt }) => json({ default_quota_bytes: await getDefaultQuota(rt) }));

// PATCH /api/settings — change the default quota; existing users keep theirs
export const PATCH = route({ auth: 'admin', body: settingsSchema }, async ({ rt, body }) =>
  json({ default_quota_bytes: await setDefaultQuota(rt, body.default_quota_bytes) }),
);
