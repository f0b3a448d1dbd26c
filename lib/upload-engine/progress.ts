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
 */
export class ProgressTracker {
  private readonly meter = new SpeedMeter();
  private readonly files = new Map<string, FileProgress & { partsLeft: number }>();
  private readonly inFlight = new Map<string, { clientPath: string; sent: number }>();
  private settled = 0;
  stage: UploadProgress['stage'] = 'preparing';

  constructor(
    sizes: { clientPath: string; size: number }[],
    private readonly emit: (p: UploadProgress) => void = () => {},
  ) {
    for (const f of sizes) this.files.set(f.clientPath, { clientPath: f.clientPath, loaded: 0, total: f.size, done: false, partsLeft: 0 });
  }

  get total(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.total;
    return n;
  }

  expectParts(clientPath: string, parts: number): void {
    this.files.get(clientPath)!.partsLeft += parts;
  }

  /** A part that needs no sending (stored earlier) or that the store just confirmed. */
  partDone(key: string, clientPath: string, bytes: number): void {
    this.inFlight.delete(key);
    this.settled += bytes;
    const f = this.files.get(clientPath)!;
    f.loaded = Math.min(f.total, f.loaded + bytes);
    f.partsLeft--;
    if (f.partsLeft <= 0) f.done = true;
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
    let loaded = this.settled;
    const sending = new Map<string, number>();
    for (const p of this.inFlight.values()) {
      loaded += p.sent;
      sending.set(p.clientPath, (sending.get(p.clientPath) ?? 0) + p.sent);
    }
    const total = this.total;
    loaded = Math.min(loaded, total);
    this.meter.add(loaded);
    const speed = this.meter.speed();
    const files = [...this.files.values()].map(({ partsLeft: _, ...f }) => ({ ...f, loaded: Math.min(f.total, f.loaded + (sending.get(f.clientPath) ?? 0)) }));
    this.emit({ stage: this.stage, loaded, total, speed, eta: speed > 0 ? (total - loaded) / speed : Infinity, files });
  }
}
