import 'server-only';
import { headers } from 'next/headers';
import { assertMigrated, getRuntime } from '../runtime';
import { authenticate } from './guards';
import type { Principal } from './principal';

/** The principal behind a page request's cookies, or null; pages never throw on auth. */
export async function getPagePrincipal(): Promise<Principal | null> {
  const h = await headers();
  const rt = await getRuntime();
  try {
    await assertMigrated(rt);
    const cookieOnly = new Headers(h);
    cookieOnly.delete('authorization');
    return (await authenticate(rt, cookieOnly, 'optional', { ip: '' })).principal;
  } catch {
    return null;
  }
}
