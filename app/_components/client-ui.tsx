'use client';

import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Button } from './ui';
import { onAsync } from '@/lib/client/on-async';

/** Copies text and says so; falls back to selecting a prompt where the clipboard is denied. The labels: the page's language (English by default). */
export function CopyButton({ text, label = 'Copy link', copiedLabel = 'Copied', promptLabel = 'Copy this:' }: { text: string; label?: string; copiedLabel?: string; promptLabel?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      window.prompt(promptLabel, text);
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <Button type="button" variant="secondary" onClick={onAsync(copy)} aria-live="polite">
      {copied ? copiedLabel : label}
    </Button>
  );
}

const noSubscribe = () => () => {};

/**
 * Opens the system share sheet with a link (`navigator.share`, on phones and some desktops);
 * renders nothing where the browser has none, so Copy and QR remain the way there.
 */
export function ShareLinkButton({
  url,
  title,
  label = 'Share link',
  unavailableLabel = 'Sharing is not available here: copy the link instead.',
}: {
  url: string;
  title?: string;
  label?: string;
  unavailableLabel?: string;
}) {
  const can = useSyncExternalStore(
    noSubscribe,
    () => typeof navigator.share === 'function',
    () => false,
  );
  const [error, setError] = useState('');
  if (!can) return null;
  async function share() {
    setError('');
    try {
      await navigator.share({ url, ...(title ? { title } : {}) });
    } catch (err) {
      // Closing the sheet is no error; a refusal (e.g. no user gesture) says so.
      if ((err as Error).name !== 'AbortError') setError(unavailableLabel);
    }
  }
  return (
    <>
      <Button type="button" variant="secondary" onClick={onAsync(share)}>
        {label}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </>
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

/** A modal asking to confirm a destructive action: Cancel, or the danger button named `action`. */
export function ConfirmDialog({
  open,
  title,
  text,
  action,
  cancelLabel = 'Cancel',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  action: string;
  /** The way out, when "Cancel" would be ambiguous (confirming a cancel). */
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <p className="text-sm text-subtle">{text}</p>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          {action}
        </Button>
      </div>
    </Dialog>
  );
}

/** A QR code of a link, drawn in the browser (no third party sees the link). */
export function QrCode({ text, size = 160, alt }: { text: string; size?: number; alt?: string }) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let live = true;
    import('qrcode').then((q) => q.toDataURL(text, { margin: 1, width: size })).then((url) => live && setSrc(url), () => {});
    return () => {
      live = false;
    };
  }, [text, size]);
  // Until it is drawn, its place is kept: nothing below jumps when it appears.
  return src ? <img src={src} width={size} height={size} alt={alt ?? `QR code for ${text}`} className="rounded-md bg-white p-1" /> : <span aria-hidden className="inline-block shrink-0" style={{ width: size, height: size }} />;
}
