import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A real HTTP receiver for webhook tests on 127.0.0.1: records every POST and answers the
 * statuses of `answers` in turn (200 once they run out). waitFor() resolves when a received
 * request matches, so a test waits on what arrived, never on a clock.
 */
export class WebhookReceiver {
  received: Received[] = [];
  answers: number[] = [];
  /** While true, a request is recorded but not answered (an attempt kept in flight). */
  holding = false;
  private server: Server;
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  port = 0;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const r: Received = { headers: req.headers, body, json: JSON.parse(body) };
        this.received.push(r);
        if (!this.holding) res.writeHead(this.answers.shift() ?? 200).end('ok');
        for (const w of [...this.waiters]) {
          if (w.match(r)) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve(r);
          }
        }
      });
    });
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** The first request (already received or still to come) that matches. */
  waitFor(match: (r: Received) => boolean): Promise<Received> {
    const found = this.received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Resolves once `n` requests matching have arrived. */
  async waitForCount(match: (r: Received) => boolean, n: number): Promise<Received[]> {
    while (this.received.filter(match).length < n) {
      await new Promise<void>((resolve) => this.waiters.push({ match: () => true, resolve: () => resolve() }));
    }
    return this.received.filter(match);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
