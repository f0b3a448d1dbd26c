/**
 * The flooding member of `npm run bench -- --only flood`, in a process of its own so that its
 * 64 connections do not share an event loop with the timer of the ranges it is measured against.
 * argv: the PATCH URL, the member's token, the seconds to flood. Prints "started" once its
 * connections are sending, then one JSON line of answer counts by status when it stops.
 */
import http from 'node:http';
import { randomInt } from 'node:crypto';

const [url, token, seconds] = process.argv.slice(2);
const CONNECTIONS = 64;
const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const statuses: Record<number, number> = {};

function patch(): Promise<number> {
  const body = JSON.stringify({ password: `flood ${randomInt(1e9)}` });
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'PATCH',
      agent,
      headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': ip(), 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

let stop = false;
setTimeout(() => (stop = true), Number(seconds) * 1000);
const loops = Array.from({ length: CONNECTIONS }, async () => {
  while (!stop) {
    const s = await patch();
    statuses[s] = (statuses[s] ?? 0) + 1;
  }
});
process.stdout.write('started\n');
await Promise.all(loops);
agent.destroy();
process.stdout.write(`${JSON.stringify(statuses)}\n`);
