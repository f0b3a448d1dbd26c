'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './ui';

/** Copies text and says so; falls back to selecting a prompt where the clipboard is denied. */
export function CopyButton({ text, label = 'Copy link' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      window.prompt('Copy this:', text);
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <Button type="button" variant="secondary" onClick={copy} aria-live="polite">
      {copied ? 'Copied' : label}
    </Button>
  );
}

/** A modal <dialog>: focus moves in, Escape closes, and the page behind is inert. */
export function Dialog({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-label={title}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {open ? (
        <div className="p-5">
          <h2 className="text-base font-semibold">{title}</h2>
          <div className="mt-3">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}

/** A QR code of a link, drawn in the browser (no third party sees the link). */
export function QrCode({ text, size = 160 }: { text: string; size?: number }) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let live = true;
    import('qrcode').then((q) => q.toDataURL(text, { margin: 1, width: size })).then((url) => live && setSrc(url), () => {});
    return () => {
      live = false;
    };
  }, [text, size]);
  return src ? <img src={src} width={size} height={size} alt={`QR code for ${text}`} className="rounded-md bg-white p-1" /> : null;
}
