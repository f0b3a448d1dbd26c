import 'server-only';
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../client';

/**
 * Many rows of one shape in one statement with one parameter: the rows as JSON, unpacked by
 * `json_to_recordset`. Drizzle's multi-row insert binds every value (5,000 parameters for a
 * 500-file share's pending uploads) and builds its SQL value by value: 80–105 ms for 500 rows
 * on PGlite, against 30–45 ms this way (docs/scale.md). For values JSON carries as they are —
 * text, numbers, booleans, null, Dates (as ISO text) — not arrays; a column no row names gets
 * its default.
 */
export async function insertRows<T extends PgTable>(db: Pick<Db, 'execute'>, table: T, rows: T['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table);
  const keys = Object.keys(rows[0]).filter((k) => (rows[0] as Record<string, unknown>)[k] !== undefined);
  const shape = keys.join('\u0000');
  for (const row of rows) {
    const own = Object.keys(row).filter((k) => (row as Record<string, unknown>)[k] !== undefined);
    // A row without a key the others have would insert null where its default belongs.
    if (own.join('\u0000') !== shape) throw new Error(`insertRows: every row needs the same columns (${keys.join(', ')})`);
  }
  for (const k of keys) {
    if (!columns[k]) throw new Error(`insertRows: ${table} has no column ${k}`);
    if (columns[k].getSQLType().endsWith('[]')) throw new Error(`insertRows: array column ${k} is not supported`);
  }
  const names = sql.join(
    keys.map((k) => sql.identifier(columns[k].name)),
    sql`, `,
  );
  // Column names and types from the schema, not from input.
  const record = sql.raw(keys.map((k) => `"${columns[k].name}" ${columns[k].getSQLType()}`).join(', '));
  const json = JSON.stringify(rows.map((r) => Object.fromEntries(keys.map((k) => [columns[k].name, (r as Record<string, unknown>)[k] ?? null]))));
  await db.execute(sql`insert into ${table} (${names}) select ${names} from json_to_recordset(${json}::json) as x(${record})`);
}
