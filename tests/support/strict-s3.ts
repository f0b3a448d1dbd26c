import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP relay in front of the real S3 server (radosgw) that adds the one rule AWS enforces
 * and radosgw does not: a presigned request carrying an `x-amz-*` header its signature does
 * not cover is refused with 403. Everything else — signatures, lengths, multipart state — is
 * radosgw's own answer. It lets the suite run direct mode against a store the server may
 * trust, since radosgw itself (rightly) fails the server's boot probe.
 */
export async function strictS3Front(target: string) {
  const upstream = new URL(target);
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    if (url.searchParams.has('X-Amz-Signature')) {
      const signed = new Set((url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';'));
      const unsigned = Object.keys(req.headers).filter((h) => h.startsWith('x-amz-') && !signed.has(h));
      if (unsigned.length) {
        refused.push(unsigned.join(','));
        res.writeHead(403, { 'Content-Type': 'application/xml', Connection: 'close' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code>' +
            `<Message>There were headers present in the request which were not signed</Message><HeadersNotSigned>${unsigned.join(', ')}</HeadersNotSigned></Error>`,
        );
        req.resume();
        return;
      }
    }
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.on('error', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** The unsigned headers of every request the front refused. */
    refused,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
