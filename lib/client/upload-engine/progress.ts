import type { FileProgress, UploadProgress } from './types';

/** Speed over a sliding window of samples: steadier than an instant rate, quicker than an average. */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];
  constructor(private windowMs = 5000) {}
  add(bytes: number, t = Date.now()): void {
    this.samples.push({ t, bytes });
    while (this.samples.length > 2 && t - this.samples[0].t > this.windowMs) this.samples.shift();
  }
  speed(): number {
    if (this.samples.length < 2) return 0;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const dt = (last.t - first.t) / 1000;
    return dt > 0 ? Math.max(0, (last.bytes - first.bytes) / dt) : 0;
  }
}

/**
 * Byte-level progress of the whole upload: parts already stored, parts done in this run, and
 * the bytes in flight of parts being sent (rolled back when an attempt fails).
 *
 * A report costs nothing without a listener, and its per-file list is built only when read:
 * one report per part event, each copying 500 files, was most of the SDK's own time on a share
 * of 500 small files (docs/scale.md). Each file's entry is replaced, never changed, so a report
 * keeps the list of its moment by copying the array alone.
 */
export class ProgressTracker {
  private readonly meter = new SpeedMeter();
  private readonly list: FileProgress[] = [];
  private readonly index = new Map<string, number>();
  private readonly partsLeft: number[] = [];
  private readonly inFlight = new Map<string, { clientPath: string; sent: number }>();
  private settled = 0;
  readonly total: number;
  stage: UploadProgress['stage'] = 'preparing';

  constructor(
    sizes: { clientPath: string; size: number }[],
    private readonly emit?: (p: UploadProgress) => void,
  ) {
    let total = 0;
    for (const f of sizes) {
      if (!this.index.has(f.clientPath)) {
        this.index.set(f.clientPath, this.list.length);
        this.list.push({ clientPath: f.clientPath, loaded: 0, total: f.size, done: false });
        this.partsLeft.push(0);
        total += f.size;
      }
    }
    this.total = total;
  }

  expectParts(clientPath: string, parts: number): void {
    this.partsLeft[this.index.get(clientPath)!] += parts;
  }

  /** A part that needs no sending (stored earlier) or that the store just confirmed. */
  partDone(key: string, clientPath: string, bytes: number): void {
    this.inFlight.delete(key);
    this.settled += bytes;
    const i = this.index.get(clientPath)!;
    const f = this.list[i];
    this.partsLeft[i]--;
    this.list[i] = { ...f, loaded: Math.min(f.total, f.loaded + bytes), done: f.done || this.partsLeft[i] <= 0 };
    this.report();
  }

  partSent(key: string, clientPath: string, sent: number): void {
    this.inFlight.set(key, { clientPath, sent });
    this.report();
  }

  /** An attempt failed: its bytes will be sent again. */
  partRetry(key: string): void {
    this.inFlight.delete(key);
    this.report();
  }

  report(): void {
    if (!this.emit) return;
    let loaded = this.settled;
    const sending = new Map<number, number>();
    for (const p of this.inFlight.values()) {
      loaded += p.sent;
      const i = this.index.get(p.clientPath)!;
      sending.set(i, (sending.get(i) ?? 0) + p.sent);
    }
    const total = this.total;
    loaded = Math.min(loaded, total);
    this.meter.add(loaded);
    const speed = this.meter.speed();
    const progress = { stage: this.stage, loaded, total, speed, eta: speed > 0 ? (total - loaded) / speed : Infinity } as UploadProgress;
    const now = this.list.slice();
    let files: FileProgress[] | undefined;
    const list = () => {
      for (const [i, sent] of sending) now[i] = { ...now[i], loaded: Math.min(now[i].total, now[i].loaded + sent) };
      return now;
    };
    Object.defineProperty(progress, 'files', { enumerable: true, configurable: true, get: () => (files ??= list()) });
    this.emit(progress);
  }
}
