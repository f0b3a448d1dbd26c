'use client';

import { callOperation } from './api';
import type { PickedFile } from './collect-files';

/** Videos of one upload whose frames are captured (the rest keep the generic icon). */
const MAX_VIDEOS = 20;
const EDGE = 1280;
const TIMEOUT_MS = 15_000;

/**
 * When the server has no ffmpeg (capabilities' videoPosters: browser), the member console's
 * upload sends each uploaded video's poster frame itself (docs/link-previews.md): the browser
 * decodes the local file in a muted <video>, seeks about a second in, draws the frame on a
 * canvas (at most 1280 px) and posts it as a JPEG to POST /api/shares/{id}/poster. Best effort,
 * after the upload is complete and never holding it: a format the browser cannot decode simply
 * leaves the video without a poster.
 */
export async function sendVideoPosters(shareId: string, files: PickedFile[]): Promise<void> {
  const videos = files.filter((f) => f.file.type.startsWith('video/')).slice(0, MAX_VIDEOS);
  if (videos.length === 0) return;
  const caps = await callOperation('uploadCapabilities').catch(() => null);
  if (caps?.videoPosters !== 'browser') return;
  for (const v of videos) {
    try {
      const frame = await captureFrame(v.file);
      if (!frame) continue;
      await callOperation('setSharePoster', { params: { id: shareId }, body: { path: v.path, image: frame.base64, duration_ms: frame.durationMs } });
    } catch {
      // This one keeps no poster; the others still try.
    }
  }
}

/** A JPEG of the frame about a second in (or a third of a shorter video), base64, with the duration. */
export function captureFrame(file: Blob): Promise<{ base64: string; durationMs: number | null } | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    let done = false;
    const finish = (r: { base64: string; durationMs: number | null } | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(r);
    };
    const timer = setTimeout(() => finish(null), TIMEOUT_MS);
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.onerror = () => finish(null);
    video.onloadedmetadata = () => {
      const d = Number.isFinite(video.duration) ? video.duration : 0;
      video.currentTime = d > 3 ? 1 : d / 3;
    };
    video.onseeked = () => {
      const w = video.videoWidth;
      const h = video.videoHeight;
      if (!w || !h) return finish(null);
      const scale = Math.min(1, EDGE / Math.max(w, h));
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(w * scale);
      canvas.height = Math.round(h * scale);
      const ctx = canvas.getContext('2d');
      if (!ctx) return finish(null);
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      const dataUrl = canvas.toDataURL('image/jpeg', 0.8);
      const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
      finish(base64 ? { base64, durationMs: Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : null } : null);
    };
    video.src = url;
  });
}
