import 'server-only';
import { purgeCompletedAdditions } from '@/db/queries/uploads';
import { bootstrapAdminToken } from './auth/admin-credential';
import { eventJanitorTasks } from './events/janitor-tasks';
import { startEventWorker } from './events/worker';
import { startPreviewWorker } from './shares/previews/worker';
import { registerJanitorTask, startJanitor } from './janitor';
import { abortOversizedUploads } from './shares/abort-oversized-uploads';
import { directUploadsAllowed } from './shares/direct-uploads';
import { abortIdleGuestUploads, abortStaleUploads } from './shares/abort-upload';
import { getServerSecret, type Runtime } from './runtime';

/**
 * Start-up work that needs the schema: the server secret and, on a first start without any
 * credential, an Admin Token printed once. Returns the runtime for the caller to serve.
 */
export async function boot(rt: Runtime, log: (line: string) => void = console.log): Promise<Runtime> {
  if (!rt.migrated) {
    log('[htmls] database migrations are pending: /api answers 503 until `npm run db:migrate` has run');
    return rt;
  }
  await getServerSecret(rt);
  const token = await bootstrapAdminToken(rt);
  if (token) {
    log('');
    log('  ┌──────────────────────────────────────────────────────────────────────┐');
    log('  │ No Admin Token was configured, so one was generated. It is shown     │');
    log('  │ only this once (only its hash is stored). Sign in at /htmls with:    │');
    log(`  │   ${token.padEnd(67)}│`);
    log('  └──────────────────────────────────────────────────────────────────────┘');
    log('');
  }
  const cors = rt.storage.capabilities.bucketCors;
  if (rt.env.s3?.setCors && cors) {
    // Browsers PUT parts straight to the bucket only when its CORS rules allow our origin.
    const origins = rt.env.publicUrl ? [rt.env.publicUrl] : ['*'];
    await cors
      .configure(origins)
      .then(() => log(`[htmls] bucket CORS set for ${origins.join(', ')}`))
      .catch((e) => log(`[htmls] could not set the bucket's CORS rules (${(e as Error).message}): uploads go through the server`));
  }
  // Probe the store before serving, so the first capabilities answer does not wait for it.
  await directUploadsAllowed(rt, log);
  registerJanitorTask(rt, abortStaleUploads);
  registerJanitorTask(rt, abortIdleGuestUploads);
  registerJanitorTask(rt, (rt) => purgeCompletedAdditions(rt.db, rt.env.pendingUploadTtlMs));
  registerJanitorTask(rt, abortOversizedUploads);
  for (const task of eventJanitorTasks) registerJanitorTask(rt, task);
  startJanitor(rt);
  startEventWorker(rt);
  startPreviewWorker(rt, log);
  return rt;
}
