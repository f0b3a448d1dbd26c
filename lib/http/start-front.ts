import 'server-only';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Worker } from 'node:worker_threads';
import type { ConnectionTable, ListenerLimits } from './connection-limits';
import { takeDownloadSlot } from './download-slots';
import type { S3Settings } from '../env';
import { refreshUnlockKey } from '../auth/unlock-cookie';
import { attachFront, createSharedState, detachFront, type FromFront, type SharedState } from '../front-link';
import { siteGeneration, sitesReadAt } from '../hosting/site-cache';
import type { Runtime } from '../runtime';

/** What the hosted front starts from (its workerData). */
export interface FrontOptions {
  host: string;
  port: number;
  /** The main thread's inner hosted listener (127.0.0.1) and the secret its requests carry. */
  innerPort: number;
  secret: string;
  /** The main listener's time limits and connection caps. */
  limits: ListenerLimits;
  /** The main thread's open connections per address: one cap for both ports. */
  connections: ConnectionTable;
  trustProxy: number;
  /** The guest caches' staleness bound (lib/epoch-cache.ts GUEST_CACHE_STALE_MS). */
  staleAfterMs: number;
  /** The store, for the large objects handed to the front (lib/http/handoff.ts). */
  storage: { kind: 'fs'; root: string } | { kind: 's3'; s3: S3Settings };
  shared: SharedState;
}

export interface Front {
  /** The hosted port the front listens on. */
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the hosted front (lib/http/hosted-front.ts, compiled to `file`) and attaches it:
 * from then on the hosted port's finished replies are kept there. A front that dies is started
 * again on the same port; `log` tells it.
 */
export async function startFront(file: URL, opts: Omit<FrontOptions, 'shared'>, main: { log: (line: string) => void; maxDownloadsPerIp: number; rt: Runtime }): Promise<Front> {
  const { log } = main;
  const shared = createSharedState();
  /** Download slots the front holds, by its id: each stands for a response of the front (its 'close'). */
  const slots = new Map<number, EventEmitter>();
  const freeSlots = () => {
    for (const holder of slots.values()) holder.emit('close');
    slots.clear();
  };
  let worker: Worker;
  let closing = false;
  let port = opts.port;

  const spawn = () =>
    new Promise<number>((resolve, reject) => {
      const w = new Worker(file, { workerData: { htmlsHostedFront: { ...opts, port, shared } satisfies FrontOptions } });
      worker = w;
      let listened = false;
      w.on('message', (m: FromFront) => {
        if (m.t === 'listening') {
          listened = true;
          attachFront(main.rt, shared, (message, transfer) => w.postMessage(message, transfer), { siteGen: siteGeneration(main.rt), sitesReadAt: sitesReadAt(main.rt) });
          resolve(m.port);
        } else if (m.t === 'refresh-key') refreshUnlockKey(main.rt);
        else if (m.t === 'slot') {
          // The same count per address as the main listener's downloads (lib/http/download-slots.ts).
          const holder = new EventEmitter();
          slots.set(m.id, holder);
          takeDownloadSlot(main.rt, m.ip, main.maxDownloadsPerIp, holder as unknown as ServerResponse).then(
            () => w.postMessage({ t: 'slot', id: m.id }),
            (e: unknown) => {
              slots.delete(m.id);
              w.postMessage({ t: 'slot', id: m.id, refused: e instanceof Error ? e.message : 'refused' });
            },
          );
        } else if (m.t === 'slot-free') {
          slots.get(m.id)?.emit('close');
          slots.delete(m.id);
        }
        else if (m.t === 'failed') reject(new Error(`hosted port: ${m.message}`));
      });
      w.once('error', (e) => {
        log(`[htmls] hosted front failed: ${e.stack ?? e}`);
        reject(e);
      });
      w.once('exit', (code) => {
        detachFront();
        freeSlots();
        if (closing) return;
        if (!listened) return reject(new Error(`hosted front exited with code ${code} before it listened`));
        // Its replies went with it: the new one starts empty and learns them again.
        log('[htmls] hosted front stopped: starting it again');
        spawn().catch((e) => log(`[htmls] hosted front could not start again: ${e}`));
      });
    });

  port = await spawn();
  return {
    port,
    close: () => {
      closing = true;
      detachFront();
      return new Promise<void>((resolve) => {
        const w = worker;
        const done = () => resolve();
        w.once('exit', done);
        w.on('message', (m: FromFront) => {
          if (m.t === 'closed') void w.terminate();
        });
        w.postMessage({ t: 'close' });
        // Requests in flight do not hold the shutdown.
        setTimeout(() => void w.terminate(), 2000).unref();
      });
    },
  };
}
