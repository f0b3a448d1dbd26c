import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers' databases and their transactions share this surface. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
