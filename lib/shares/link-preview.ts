import 'server-only';
import type { ShareGroupRow } from '@/db/schema';
import type { Env } from '../env';
import { formatBytes } from '../format-bytes';
import { shareTitle } from '../share-title';

/**
 * What a chat app's unfurl of /f/<id> shows (docs/link-previews.md): the share page's tags, its
 * card image (/f/<id>.png) and its oEmbed answer all read this one description, so they never
 * disagree and the generic card is decided in one place. Pure: it reads what the page already
 * loaded (no query of its own).
 */
export interface ShareCard {
  /** True: nothing of the share's own (names, sizes, count, expiry, poster) may appear. */
  generic: boolean;
  title: string;
  description: string;
  /** Only on a specific card. */
  fileCount?: number;
  totalBytes?: number;
  expiresAt?: Date | null;
}

export const GENERIC_CARD: ShareCard = {
  generic: true,
  title: 'Shared files',
  description: 'Files shared with htmls. Open the link to see them.',
};

/** The share as the guest gate saw it: open (or out of downloads, whose page still shows it), else not. */
export interface CardSource {
  state: string;
  group?: Pick<ShareGroupRow, 'note' | 'totalBytes' | 'expiresAt' | 'passwordHash'>;
  paths?: readonly string[];
}

export function shareCard(env: Pick<Env, 'linkPreviews'>, src: CardSource): ShareCard {
  const shown = src.state === 'open' || src.state === 'exhausted';
  // A password share stays generic even for the guest who unlocked it: the unfurler's copy of the
  // page is cached and shown to everyone in the chat.
  if (!env.linkPreviews || !shown || !src.group || !src.paths || src.group.passwordHash) return GENERIC_CARD;
  const { group, paths } = src;
  const fileCount = paths.length;
  const totalBytes = Number(group.totalBytes);
  const first = paths.reduce<string | null>((a, p) => (a === null || p < a ? p : a), null);
  const parts = [`${fileCount} ${fileCount === 1 ? 'file' : 'files'}`, formatBytes(totalBytes)];
  if (group.expiresAt) parts.push(`available until ${group.expiresAt.toISOString().slice(0, 10)}`);
  return {
    generic: false,
    title: shareTitle(group.note, first, fileCount),
    description: parts.join(' · '),
    fileCount,
    totalBytes,
    expiresAt: group.expiresAt,
  };
}

/** The card image's address: beside the page, outside the items' namespace (ids are alphanumeric). */
export const shareCardPath = (id: string) => `/f/${id}.png`;
