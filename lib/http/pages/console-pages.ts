import 'server-only';
import { listPublicProjects } from '../../../db/queries/directory';
import { getEnv } from '../../env';
import { getHostedPort } from '../../hosting/hosted-port';
import { assertMigrated, getRuntime } from '../../runtime';
import { pageCsp } from '../../security/csp';
import { hostedOriginFor, isSecureRequest, type HeaderSource } from '../origin';

/** The public directory's page of projects (`/`). */
export async function directoryPage(opts: { q?: string; page: number; perPage: number }) {
  const rt = await getRuntime();
  await assertMigrated(rt);
  return listPublicProjects(rt.db, opts);
}

/** What /htmls needs of the setup: where hosted sites live, and whether they share this origin. */
export function htmlsPage(headers: HeaderSource): { hostedBase: string | null; sandbox: boolean } {
  const env = getEnv();
  return { hostedBase: hostedOriginFor(env, getHostedPort(), headerHost(headers), isSecureRequest(env, headers)), sandbox: env.hosted.mode === 'sandbox' };
}

const headerHost = (h: HeaderSource) => (h instanceof Headers ? h.get('host') : h.header('host')) ?? undefined;

/** The Content-Security-Policy of a server-rendered page with this nonce (proxy.ts). */
export const csp = (nonce: string, dev: boolean) => pageCsp(nonce, getEnv(), dev);
