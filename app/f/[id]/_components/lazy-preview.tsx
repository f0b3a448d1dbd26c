'use client';

import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '@/lib/format-bytes';
import type { previewKind } from '@/lib/http/mime';

/** The bytes a text preview asks for (one Range request). */
const TEXT_PREVIEW_BYTES = 4096;
/** Larger images wait for a click: a preview should not cost a 50 MB photo per row. */
const IMAGE_AUTO_BYTES = 8 * 1024 * 1024;

type Kind = NonNullable<ReturnType<typeof previewKind>>;

/** Mounts a preview only once its row comes near the viewport; nothing is fetched before. */
export function LazyPreview({ url, name, size, kind }: { url: string; name: string; size: number; kind: Kind }) {
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
      {visible ? <Preview url={url} name={name} size={size} kind={kind} /> : null}
    </div>
  );
}

function Preview({ url, name, size, kind }: { url: string; name: string; size: number; kind: Kind }) {
  const [opened, setOpened] = useState(false);
  if (kind === 'video') return <video className="max-h-[75vh] w-full rounded-lg bg-black" controls playsInline preload="metadata" src={url} />;
  if (kind === 'audio') return <audio className="w-full" controls preload="metadata" src={url} />;
  if (kind === 'text') return <TextPreview url={url} size={size} />;
  if (kind === 'image' && (size <= IMAGE_AUTO_BYTES || opened)) {
    return <img className="max-h-[75vh] max-w-full rounded-lg" src={url} alt={name} loading="lazy" decoding="async" />;
  }
  return (
    <button
      type="button"
      onClick={() => setOpened(true)}
      className="min-h-11 rounded-md border border-zinc-300 px-3 text-sm hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
    >
      Show preview ({formatBytes(size)})
    </button>
  );
}

/** The first few KB of a text file, by one Range request. */
function TextPreview({ url, size }: { url: string; size: number }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    fetch(url, { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal: ctl.signal })
      .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(String(r.status)))))
      .then((b) => setText(new TextDecoder().decode(b) + (size > TEXT_PREVIEW_BYTES ? '\n…' : '')))
      .catch(() => undefined);
    return () => ctl.abort();
  }, [url, size]);
  if (text === null) return <p className="text-xs text-muted">Loading preview…</p>;
  return <pre className="max-h-96 overflow-auto rounded-lg bg-zinc-100 p-3 text-xs leading-relaxed dark:bg-zinc-950">{text}</pre>;
}
