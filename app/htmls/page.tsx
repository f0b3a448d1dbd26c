import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { server } from '@/lib/http/next-link';
import { AppWorker } from '@/app/_components/app-worker';
import { HtmlsApp } from './_components/htmls-app';

export const metadata: Metadata = { title: 'Hosting console', manifest: '/htmls/manifest.webmanifest' };

/**
 * The same page for every visitor: whether the administrator is signed in is settled by the
 * console with the API (lib/client/console-session.ts), never from the cookie here.
 */
export default async function HtmlsPage() {
  // Request time first: the page is rendered per request (its CSP nonce), never at build, where
  // the environment need not be valid.
  const h = await headers();
  const { hostedBase, sandbox } = server().pages.htmlsPage(h);
  return (
    <>
      <AppWorker scope="/htmls" />
      {/* About the setup, not an account: shown with the login too. */}
      {sandbox ? (
        <p role="alert" className="mx-auto mt-4 max-w-5xl rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
          Hosted sites are served on this origin inside a CSP sandbox (HOSTED_PORT=0 without HOSTED_ORIGIN): their own fetch calls, module
          scripts, localStorage and the assets of password-protected sites do not work. Set HOSTED_ORIGIN, or leave HOSTED_PORT unset so
          sites get their own origin.
        </p>
      ) : null}
      <HtmlsApp hostedBase={hostedBase} />
    </>
  );
}
