import 'server-only';
import type { Runtime } from '../runtime';

/** A probe that could not reach the store is asked again after this long. */
const RETRY_MS = 60_000;

/**
 * Whether browsers and clients may PUT parts straight to the store. Besides configuration
 * (UPLOAD_MODE=auto, S3 credentials), the store must refuse to turn a presigned part URL
 * into a copy (lib/storage/s3-copy-probe.ts): asked once per process, logged when it fails.
 */
export async function directUploadsAllowed(rt: Runtime, log: (line: string) => void = console.log): Promise<boolean> {
  const { storage } = rt;
  const presign = storage.capabilities.presignedParts;
  if (rt.env.uploadMode !== 'auto' || !presign) return false;
  const held = rt.copyProbe;
  const stale = held?.settled && !held.settled.safe && held.settled.transient && Date.now() - held.at > RETRY_MS;
  if (!held || stale) {
    const state: NonNullable<Runtime['copyProbe']> = {
      at: Date.now(),
      result: presign.probeCopy().then((r) => {
        state.settled = r;
        if (!r.safe) log(`[htmls] direct uploads are off: ${r.reason}. Share uploads go through the server.`);
        return r;
      }),
    };
    rt.copyProbe = state;
  }
  return (await rt.copyProbe!.result).safe;
}
