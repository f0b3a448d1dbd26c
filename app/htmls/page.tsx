import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getPagePrincipal } from '@/lib/auth/page-session';
import { isAdmin } from '@/lib/auth/principal';
import { getEnv } from '@/lib/env';
import { getHostedPort } from '@/lib/hosting/hosted-port';
import { hostedOriginFor, isSecureRequest } from '@/lib/http/origin';
import { AppWorker } from '@/app/_components/app-worker';
import { AdminConsole } from './_components/admin-console';
import { AdminLogin } from './_components/admin-login';

export const metadata: Metadata = { title: 'Hosting console', manifest: '/htmls/manifest.webmanifest' };

export default async function HtmlsPage() {
  const principal = await getPagePrincipal();
  // /htmls accepts only the Admin Token itself, not an admin-role member login.
  const signedIn = principal?.kind === 'admin' && isAdmin(principal);
  if (!signedIn) {
    return (
      <>
        <AppWorker scope="/htmls" />
        <AdminLogin />
      </>
    );
  }
  const env = getEnv();
  const h = await headers();
  const hostedBase = hostedOriginFor(env, getHostedPort(), h.get('host') ?? undefined, isSecureRequest(env, h));
  return (
    <>
      <AppWorker scope="/htmls" />
      <AdminConsole hostedBase={hostedBase} sandboxed={env.hosted.mode === 'sandbox'} />
    </>
  );
}
