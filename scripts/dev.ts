// `npm run dev`: the service with Next in development mode, server.ts through tsx.
import { main } from '../server';

await main({ dev: true });
