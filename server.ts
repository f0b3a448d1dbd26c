/**
 * The production entry point: one Node http server. The two byte-serving paths (/p/*, and
 * /f/<id>/<file>) are answered by framework-free handlers; everything else goes to Next.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import next from 'next';
import { boot } from './lib/boot';
import { EnvError, getEnv } from './lib/env';
import { serveHosted } from './lib/hosting/serve-hosted';
import { CLIENT_IP_HEADER, markCustomServer, resolveClientIp } from './lib/http/client-ip';
import { fromNode, textReply, writeNodeReply, type FastReply, type FastRequest } from './lib/http/fast';
import { LONGEST_REQUEST_MS } from './lib/http/timeouts';
import { closeRuntime } from './lib/runtime';
import { handleChunk } from './lib/shares/chunk-handler';
import { gateSharePage, serveShareItem } from './lib/shares/serve-share-item';

const SHARE_ITEM = /^\/f\/[^/?]+\/[^?]/;
const SHARE_PAGE = /^\/f\/[^/?]+\/?(\?|$)/;
const CHUNK = /^\/api\/shares\/upload\/chunk(\?|$)/;

function fastHandlerFor(url: string): ((req: FastRequest) => Promise<FastReply>) | null {
  if (url === '/p' || url.startsWith('/p/') || url.startsWith('/p?')) return serveHosted;
  if (SHARE_ITEM.test(url)) return serveShareItem;
  if (CHUNK.test(url)) return handleChunk;
  return null;
}

async function main() {
  let env;
  try {
    env = getEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const dev = process.argv.includes('--dev');
  markCustomServer();
  await boot();

  // Source maps are on for our own compiled server (its stack traces point at the TypeScript);
  // Next's chunks, loaded from here on, need not keep theirs (and their embedded sources, tens
  // of MB) in memory.
  if (!dev) process.setSourceMapsEnabled(false);
  const app = next({ dev, dir: process.cwd(), hostname: env.host, port: env.port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const hostedHost = env.hostedOrigin ? new URL(env.hostedOrigin).host : null;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const ip = resolveClientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'] as string | undefined, env.trustProxy);
    const url = req.url ?? '/';
    const fast = fastHandlerFor(url);
    if (hostedHost && req.headers.host === hostedHost && fast !== serveHosted) {
      // The hosted origin serves hosted sites and nothing else: no consoles, no API.
      writeNodeReply(res, textReply(404, 'Not found'), req.method ?? 'GET');
      return;
    }
    if (fast) {
      fast(fromNode(req, ip)).then(
        (reply) => writeNodeReply(res, reply, req.method ?? 'GET'),
        (err) => {
          console.error('[htmls] fast path error:', err);
          if (!res.headersSent) writeNodeReply(res, textReply(500, 'Internal error'), 'GET');
          else res.destroy();
        },
      );
      return;
    }
    req.headers[CLIENT_IP_HEADER] = ip;
    if (SHARE_PAGE.test(url)) {
      // The share page renders in Next; its 404/410/401 answers are decided here first.
      gateSharePage(fromNode(req, ip)).then(
        (reply) => (reply ? writeNodeReply(res, reply, req.method ?? 'GET') : handle(req, res)),
        () => handle(req, res),
      );
      return;
    }
    handle(req, res);
  });
  // Uploads may legitimately take long (the console allows 30 minutes); slow headers may not.
  server.requestTimeout = LONGEST_REQUEST_MS;
  server.headersTimeout = 60 * 1000;
  server.keepAliveTimeout = 5 * 1000;

  server.listen(env.port, env.host, () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : env.port;
    console.log(`[htmls] listening on http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port} (${dev ? 'development' : 'production'}, ${env.databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${env.storage} storage)`);
  });

  const stop = () => {
    server.close();
    server.closeIdleConnections();
    closeRuntime().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e) => {
  console.error('[htmls] failed to start:', e);
  process.exit(1);
});
