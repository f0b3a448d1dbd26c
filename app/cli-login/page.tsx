import type { Metadata } from 'next';
import { connection } from 'next/server';
import { CliLogin } from './cli-login';

export const metadata: Metadata = { title: 'Sign in the command line' };

/** `htmls login --sso`: the browser side of the hand-off (lib/auth/cli-handoff.ts). */
export default async function CliLoginPage() {
  // Rendered per request: the page's scripts carry this request's CSP nonce (proxy.ts).
  await connection();
  return <CliLogin />;
}
