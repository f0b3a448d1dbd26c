'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '@/lib/format-bytes';
import type { PreviewKind } from '@/lib/contract/dtos';

/** The bytes a text preview asks for (one Range request). */
const TEXT_PREVIEW_BYTES = 4096;
/** Larger images wait for a click: a preview should not cost a 50 MB photo per row. */
const IMAGE_AUTO_BYTES = 8 * 1024 * 1024;

type Kind = NonNullable<PreviewKind>;

/**
 * Whether playing a video or audio counts: null without a download limit (the preview plays
 * whole, never counting); true with downloads left (the preview shows the first frame and the
 * duration; pressing play switches to the file itself, which uses one download); false with
 * none left (the first frame and the duration only).
 */
type PlayCounts = boolean | null;

/** Mounts a preview only once its row comes near the viewport; nothing is fetched before. */
export function LazyPreview({ url, name, size, kind, playCounts, poster }: { url: string; name: string; size: number; kind: Kind; playCounts: PlayCounts; poster?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || visible) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          io.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [visible]);
  return (
    <div ref={ref} className="mt-3 min-h-6" data-preview={kind} data-loaded={visible ? '1' : '0'}>
      {visible ? <Preview url={url} name={name} size={size} kind={kind} playCounts={playCounts} poster={poster} /> : null}
    </div>
  );
}

function Preview({ url, name, size, kind, playCounts, poster }: { url: string; name: string; size: number; kind: Kind; playCounts: PlayCounts; poster?: string }) {
  const t = useTranslations('share');
  const locale = useLocale();
  const [opened, setOpened] = useState(false);
  // `?preview` never counts as a download (lib/http/guest/serve-preview.ts).
  const preview = `${url}?preview`;
  if (kind === 'video' || kind === 'audio') return <MediaPreview url={url} preview={preview} kind={kind} playCounts={playCounts} poster={poster} />;
  if (kind === 'text') return <TextPreview url={preview} size={size} />;
  if (kind === 'image' && (size <= IMAGE_AUTO_BYTES || opened)) {
    return <img className="max-h-[75vh] max-w-full rounded-lg" src={preview} alt={name} loading="lazy" decoding="async" />;
  }
  return (
    <button
      type="button"
      onClick={() => setOpened(true)}
      className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
    >
      {poster ? <img className="mb-2 block max-h-40 rounded-md" src={poster} alt="" loading="lazy" decoding="async" /> : null}
      {t('showPreview', { size: formatBytes(size, locale) })}
    </button>
  );
}

/** The first few KB of a text file, by one Range request. */
function TextPreview({ url, size }: { url: string; size: number }) {
  const t = useTranslations('share');
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    fetch(url, { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal: ctl.signal })
      .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(String(r.status)))))
      .then((b) => setText(new TextDecoder().decode(b) + (size > TEXT_PREVIEW_BYTES ? '\n…' : '')))
      .catch(() => undefined);
    return () => ctl.abort();
  }, [url, size]);
  if (text === null) return <p className="text-xs text-muted">{t('loadingPreview')}</p>;
  // The file's own direction (code and most text read left to right, an Arabic note right to left).
  return <pre dir="auto" className="max-h-96 overflow-auto rounded-lg bg-zinc-100 p-3 text-xs leading-relaxed dark:bg-zinc-950">{text}</pre>;
}

/**
 * A player on the preview (metadata, first frame, and with no limit the whole file). With a
 * limit, the first play switches it to the file itself at the same position: playing it is
 * downloading it, and uses one download (a seek after that continues the same one).
 */
function MediaPreview({ url, preview, kind, playCounts, poster }: { url: string; preview: string; kind: 'video' | 'audio'; playCounts: PlayCounts; poster?: string }) {
  const t = useTranslations('share');
  const [src, setSrc] = useState(preview);
  const onPlay = (e: React.SyntheticEvent<HTMLMediaElement>) => {
    if (playCounts !== true || src === url) return;
    const el = e.currentTarget;
    const at = el.currentTime;
    el.pause();
    setSrc(url);
    el.addEventListener('loadedmetadata', () => ((el.currentTime = at), void el.play().catch(() => undefined)), { once: true });
  };
  // Once playing the file, it stays playable when the page learns that was the last download.
  const playing = src === url;
  const common = { controls: playCounts !== false || playing, preload: 'metadata' as const, src, onPlay };
  const player =
    kind === 'video' ? <video className="max-h-[75vh] w-full rounded-lg bg-black" playsInline poster={poster} {...common} /> : <audio className="w-full" {...common} />;
  if (playCounts === null) return player;
  return (
    <>
      {player}
      <p className="mt-1 text-xs text-muted">
        {playing ? t('playing') : playCounts ? t('playCounts') : t('playOff')}
      </p>
    </>
  );
}
