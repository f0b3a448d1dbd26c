import 'server-only';
import { announcePreviews, claimPendingPreviews, finishPreview, markNoPreview, retryPreviewLater, type ClaimedPreview, type PreviewResult } from '@/db/queries/previews';
import { perRuntime, type Runtime } from '../../runtime';
import { derivedKey } from '../../storage/keys';
import { ffmpegAvailable, isThumbType, isVideoType, makePoster, makeThumbnail, type Picture } from './make';

/**
 * The preview worker (docs/link-previews.md): every instance runs one, off every request's path.
 * Items are published with preview_state `pending`; the worker claims a few at a time in the
 * database (db/queries/previews.ts: SKIP LOCKED and a lease, so with several instances on
 * PostgreSQL each item is made by one of them, once, and one lost with its instance is taken
 * again when its lease ends), makes one picture at a time (a video's poster with ffmpeg, an
 * image's thumbnail with sharp), stores it beside the item under the share's prefix and records
 * it. It polls every POLL_MS and is woken at once by a publish on this instance.
 */
const POLL_MS = 3000;
const BATCH = 8;
/** Longer than a batch can take (each picture is bounded by ffmpeg's 30 s limit and a read). */
const LEASE_SECONDS = 600;
const MAX_ATTEMPTS = 3;

interface WorkerState {
  timer: NodeJS.Timeout | null;
  /** Aborted at stop: kills an ffmpeg in progress. */
  abort: AbortController;
  running: Promise<void> | null;
  again: boolean;
}
const WAKE = Symbol.for('htmls.previewWorker.wake');
const stateOf = perRuntime<WorkerState & { wake?: () => void }>(() => ({ timer: null, abort: new AbortController(), running: null, again: false }));
type WakeHolder = { [WAKE]?: Set<() => void> };
const wakers = () => ((globalThis as WakeHolder)[WAKE] ??= new Set());

/**
 * Tells this instance's worker that items were published (a share or an addition completed).
 * Through globalThis: the API's module copy and server.ts's are not always the same instance.
 */
export function wakePreviewWorker(): void {
  // Every service's worker of the process: one that has nothing to make claims nothing.
  for (const wake of wakers()) wake();
}

export function startPreviewWorker(rt: Runtime, log: (line: string) => void = console.log): void {
  const state = stateOf(rt);
  if (state.timer) return;
  state.abort = new AbortController();
  void ffmpegAvailable(rt.env.ffmpegPath).then((ok) => {
    if (!ok) log(`[htmls] ${rt.env.ffmpegPath ? `ffmpeg (${rt.env.ffmpegPath}) is not available` : 'FFMPEG_PATH=off'}: video posters come from the uploader's browser`);
  });
  state.wake = () => tick(rt);
  wakers().add(state.wake);
  state.timer = setInterval(() => tick(rt), POLL_MS);
  state.timer.unref();
  tick(rt);
}

/** At shutdown: no new claim; waits for the picture in progress (a claim it abandons is taken again after its lease). */
export async function stopPreviewWorker(rt: Runtime): Promise<void> {
  const state = stateOf(rt);
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  state.again = false;
  if (state.wake) wakers().delete(state.wake);
  state.abort.abort();
  await state.running;
}

function tick(rt: Runtime): void {
  const state = stateOf(rt);
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = (async () => {
    do {
      state.again = false;
      try {
        // Batch after batch while there is work.
        while (state.timer && (await runBatch(rt)) > 0);
      } catch (e) {
        console.error('[htmls] making previews failed:', (e as Error).message);
      }
    } while (state.again && state.timer);
  })().finally(() => {
    state.running = null;
  });
}

/** One claimed batch made; how many items it claimed. */
export async function runBatch(rt: Runtime): Promise<number> {
  const claimed = await claimPendingPreviews(rt.db, BATCH, LEASE_SECONDS);
  const none = claimed.filter((c) => !isVideoType(c.contentType) && !isThumbType(c.contentType));
  await markNoPreview(
    rt.db,
    none.map((c) => c.id),
  );
  let recorded = 0;
  try {
    for (const c of claimed) {
      if (none.includes(c) || !stateOf(rt).timer) continue;
      if (await makeOne(rt, c)) recorded++;
    }
  } finally {
    // The guests' caches learn the batch's pictures at once, when all are recorded (also when
    // a later one failed or the service stopped): a move per picture would empty every
    // instance's share cache once for each picture of a large share.
    if (recorded > 0) await announcePreviews(rt.db);
  }
  return claimed.length;
}

/** Makes and records one item's picture; true when a picture was recorded (the item shows one now). */
async function makeOne(rt: Runtime, c: ClaimedPreview): Promise<boolean> {
  let picture: Picture | null;
  try {
    if (isVideoType(c.contentType)) {
      const ffmpeg = (await ffmpegAvailable(rt.env.ffmpegPath)) ? rt.env.ffmpegPath! : null;
      if (!ffmpeg) {
        // No ffmpeg here: the uploader's browser sends a frame (POST /api/shares/{id}/poster).
        await finishPreview(rt.db, c, { state: 'browser' });
        return false;
      }
      picture = await makePoster(ffmpeg, rt.storage, c.storageKey, c.size, stateOf(rt).abort.signal);
    } else {
      picture = await makeThumbnail(rt.storage, c.storageKey, c.size);
    }
  } catch (e) {
    if (stateOf(rt).abort.signal.aborted) {
      // Stopped with the service: the claim is given back (the next instance takes it at once).
      await retryPreviewLater(rt.db, c, 0).catch(() => {});
      return false;
    }
    console.error(`[htmls] the preview of ${c.storageKey} failed (attempt ${c.attempt}):`, (e as Error).message);
    if (c.attempt >= MAX_ATTEMPTS) await finishPreview(rt.db, c, { state: 'none' });
    else await retryPreviewLater(rt.db, c, 60 * c.attempt);
    return false;
  }
  if (!picture) {
    await finishPreview(rt.db, c, { state: 'none' });
    return false;
  }
  return storePicture(rt, c, picture);
}

async function storePicture(rt: Runtime, c: ClaimedPreview, picture: Picture): Promise<boolean> {
  const key = derivedKey(c.groupId, c.id);
  await rt.storage.put(key, picture.jpeg, { size: picture.jpeg.length, contentType: 'image/jpeg' });
  const result: PreviewResult = { state: 'ready', key, width: picture.width, height: picture.height, durationMs: picture.durationMs };
  if (await finishPreview(rt.db, c, result)) return true;
  // The item was deleted (or its claim lost) meanwhile: its picture goes too.
  await rt.storage.delete(key).catch(() => {});
  return false;
}
