import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getEnv } from '@/lib/env';
import { getHostedPort } from '@/lib/hosting/hosted-port';
import { hostedOriginFor, isSecureRequest } from '@/lib/http/origin';
import { AppWorker } from '@/app/_components/app-worker';
import { HtmlsApp } from './_components/htmls-app';

export const metadata: Metadata = { title: 'Hosting console', manifest: '/htmls/manifest.webmanifest' };

/**
 * The same page for every visitor: whether the administrator is signed in is settled by the
 * console with the API (lib/client/console-session.ts), never from the cookie here.
 */
export default async function HtmlsPage() {
  const env = getEnv();
  const h = await headers();
  const hostedBase = hostedOriginFor(env, getHostedPort(), h.get('host') ?? undefined, isSecureRequest(env, h));
  return (
    <>
      <AppWorker scope="/htmls" />
      <HtmlsApp hostedBase={hostedBase} sandboxed={env.hosted.mode === 'sandbox'} />
    </>
  );
}
