import 'server-only';
import { createHash } from 'node:crypto';
import type { ShareItemRow } from '@/db/schema';
import { planZip, type ZipPlan } from '../zip/zip-layout';

export interface ShareZip {
  plan: ZipPlan;
  /** The share item behind each planned entry; null for a folder entry. */
  items: (ShareItemRow | null)[];
  etag: string;
  lastModified: Date;
  /** Suggested file name (zipFileName): the folder's, the note's, the one top folder's, else the share id's. */
  fileName: string;
}

/**
 * The archive of a share's items — all of them, or those under `folder` (a share path without
 * a trailing slash). Paths inside the archive keep their folders; for one folder they start at
 * that folder (`folder=a/b` gives `b/…`), so unzipping yields the folder itself. Entries are
 * sorted by path, folders come before their contents, every timestamp is the item's stored
 * time: the same items always give the same bytes, which the ETag names. null: no item matches.
 */
export function planShareZip(share: { id: string; note: string }, allItems: ShareItemRow[], folder: string | null): ShareZip | null {
  const shareId = share.id;
  const prefix = folder ? `${folder}/` : '';
  const items = allItems.filter((it) => it.relativePath.startsWith(prefix));
  if (items.length === 0) return null;
  // Names keep the folder's own last segment: `a/b` gives `b/…`.
  const cut = folder ? folder.lastIndexOf('/') + 1 : 0;
  const byName = new Map<string, ShareItemRow | null>();
  const times = new Map<string, number>();
  for (const it of items) {
    const name = it.relativePath.slice(cut);
    byName.set(name, it);
    // Each folder entry is as old as the newest item under it.
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `${parts.slice(0, i).join('/')}/`;
      if (!byName.has(dir)) byName.set(dir, null);
      times.set(dir, Math.max(times.get(dir) ?? 0, it.createdAt.getTime()));
    }
  }
  const names = [...byName.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const plan = planZip(
    names.map((name) => {
      const it = byName.get(name)!;
      return { name, size: it ? Number(it.size) : 0, mtime: it ? it.createdAt : new Date(times.get(name)!) };
    }),
  );
  const hash = createHash('sha256').update(`zip1\0${shareId}\0${folder ?? ''}`);
  for (const it of items) hash.update(`\0${it.relativePath}\0${it.size}\0${it.etag}\0${it.createdAt.getTime()}`);
  const lastModified = new Date(Math.max(...items.map((it) => it.createdAt.getTime())));
  return {
    plan,
    items: names.map((n) => byName.get(n)!),
    etag: `"z${hash.digest('base64url').slice(0, 32)}"`,
    lastModified,
    fileName: `${folder ? folder.slice(cut) : zipBaseName(share, items)}.zip`,
  };
}

/**
 * What the whole share's ZIP is called: a guest saving "Xk3f9…zip" cannot tell it from the next
 * one. The note names it when there is one (as the owner wrote it, made safe as a file name),
 * else the one folder every item is in, else the share id.
 */
export function zipBaseName(share: { id: string; note: string }, items: { relativePath: string }[]): string {
  const fromNote = safeFileName(share.note);
  if (fromNote) return fromNote;
  const tops = new Set(items.map((it) => (it.relativePath.includes('/') ? it.relativePath.split('/')[0] : null)));
  const [top] = tops;
  if (tops.size === 1 && top) return safeFileName(top) || share.id;
  return share.id;
}

/** A note as a file name: one line, no path or reserved characters, no leading/trailing dots, at most 80 characters. */
export function safeFileName(text: string): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...cleaned].slice(0, 80).join('').replace(/^[\s.]+|[\s.]+$/g, '');
}
