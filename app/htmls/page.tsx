import type { Metadata } from 'next';
import { getPagePrincipal } from '@/lib/auth/page-session';
import { isAdmin } from '@/lib/auth/principal';
import { AppWorker } from '@/app/_components/app-worker';
import { AdminConsole } from './_components/admin-console';
import { AdminLogin } from './_components/admin-login';

export const metadata: Metadata = { title: 'Hosting console', manifest: '/htmls/manifest.webmanifest' };

export default async function HtmlsPage() {
  const principal = await getPagePrincipal();
  // /htmls accepts only the Admin Token itself, not an admin-role member login.
  const signedIn = principal?.kind === 'admin' && isAdmin(principal);
  return (
    <>
      <AppWorker scope="/htmls" />
      {signedIn ? <AdminConsole /> : <AdminLogin />}
    </>
  );
}
