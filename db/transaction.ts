import 'server-only';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './types';

/**
 * After-commit hooks: work a change must trigger only once it is committed (dropping this
 * instance's caches when an epoch moved: lib/epoch-cache.ts). createDb() routes every
 * db.transaction() through runTransaction(), so a query module registers its hook with
 * afterCommit(tx, …) and no use case has to remember it.
 */
const hooksOf = new WeakMap<object, (() => void)[]>();
/** The database a transaction belongs to (rootDb). */
const rootOf = new WeakMap<object, Db>();

/** The database itself of `db`, which may be one of its transactions. */
export const rootDb = (db: Db): Db => rootOf.get(db) ?? db;

type Begin = (fn: (tx: Db) => Promise<unknown>, config?: unknown) => Promise<unknown>;

/** `begin` (the driver's own db.transaction) around `fn`; then, once committed, its hooks in order. */
async function runTransaction(root: Db, begin: Begin, fn: (tx: Db) => Promise<unknown>, config?: unknown): Promise<unknown> {
  const hooks: (() => void)[] = [];
  const result = await begin((tx) => {
    hooksOf.set(tx, hooks);
    rootOf.set(tx, root);
    return fn(tx);
  }, config);
  for (const hook of hooks) hook();
  return result;
}

/**
 * Runs `hook` once what `db` did is committed: at the end of its transaction, or now when `db`
 * is the database itself (each statement commits on its own).
 */
export function afterCommit(db: Db, hook: () => void): void {
  const hooks = hooksOf.get(db);
  if (hooks) {
    hooks.push(hook);
    return;
  }
  // A nested transaction (a savepoint) would commit with its parent, which holds the hooks.
  if (db instanceof PgTransaction) throw new Error('afterCommit() in a nested transaction is not supported');
  hook();
}

/** Makes every transaction of `db` one with after-commit hooks. */
export function withCommitHooks(db: Db): Db {
  const begin = db.transaction.bind(db) as Begin;
  db.transaction = ((fn: (tx: Db) => Promise<unknown>, config?: unknown) => runTransaction(db, begin, fn, config)) as Db['transaction'];
  return db;
}
