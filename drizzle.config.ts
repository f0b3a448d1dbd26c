import { defineConfig } from 'drizzle-kit';

// Generation only needs the schema; migrations are applied by db/migrate.ts on both drivers.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
});
