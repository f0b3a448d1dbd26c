// The one implementation lives beside the queries that need it (db/ imports nothing from lib/).
export { processState } from '@/db/process-state';
