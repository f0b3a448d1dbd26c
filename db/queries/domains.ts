import 'server-only';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../client';
import { projectDomains } from '../schema';
import { bumpHostingEpoch, lockProject } from './projects';

// Custom domains of hosted projects: the host-name index every request consults, and its changes.

/** Every host name with its project, for the in-memory index. */
export async function listAllDomains(db: Db): Promise<{ host: string; slug: string }[]> {
  return db.select({ host: projectDomains.host, slug: projectDomains.slug }).from(projectDomains);
}

/** The domains of these projects, by slug (each list in name order). */
export async function domainsOf(db: Db, slugs: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (slugs.length === 0) return out;
  const rows = await db.select().from(projectDomains).where(inArray(projectDomains.slug, slugs)).orderBy(asc(projectDomains.host));
  for (const r of rows) out.set(r.slug, [...(out.get(r.slug) ?? []), r.host]);
  return out;
}

/**
 * Makes `hosts` the project's domains, under its row lock. 'no-project', a host another
 * project has ({ taken }), or 'ok'. Two projects claiming one host at once: the primary key
 * lets one in, and the other is told it is taken.
 */
export async function setProjectDomains(db: Db, slug: string, hosts: string[]): Promise<'ok' | 'no-project' | { taken: string }> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await lockProject(tx, slug))) return 'no-project' as const;
      if (hosts.length > 0) {
        const [other] = await tx
          .select({ host: projectDomains.host })
          .from(projectDomains)
          .where(and(inArray(projectDomains.host, hosts), ne(projectDomains.slug, slug)))
          .limit(1);
        if (other) return { taken: other.host };
      }
      await tx.delete(projectDomains).where(eq(projectDomains.slug, slug));
      if (hosts.length > 0) await tx.insert(projectDomains).values(hosts.map((host) => ({ host, slug })));
      await bumpHostingEpoch(tx);
      return 'ok' as const;
    });
  } catch (e) {
    const code = (e as { code?: string; cause?: { code?: string } }).code ?? (e as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') return { taken: hosts[0] };
    throw e;
  }
}
