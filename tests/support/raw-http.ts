import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a TCP socket, for headers fetch refuses to
 * send (NUL, non-Latin-1). Header values are written as UTF-8; the answer is read to the end
 * (Connection: close) and parsed. A connection the server closes without answering rejects.
 */
export function rawRequest(base: string, method: string, path: string, headers: [string, string][] = []): Promise<RawResponse> {
  const url = new URL(base);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      // latin1: one char per byte, so chunk sizes count right; the body is decoded as UTF-8 at the end.
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!m || head < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const hs: Record<string, string> = {};
      for (const l of text.slice(0, head).split('\r\n').slice(1)) {
        const i = l.indexOf(':');
        if (i > 0) hs[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let body = text.slice(head + 4);
      if (/chunked/i.test(hs['transfer-encoding'] ?? '')) body = unchunk(body);
      resolve({ status: Number(m[1]), headers: hs, body: Buffer.from(body, 'latin1').toString('utf8') });
    });
    // write, not end: a half-closed socket gets no answer to a request the parser refuses.
    socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'));
  });
}

function unchunk(s: string): string {
  let out = '';
  let rest = s;
  for (;;) {
    const nl = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 2 + size + 2);
  }
}
