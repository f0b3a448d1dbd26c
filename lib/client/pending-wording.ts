/**
 * How the console words an unfinished upload (issue 41, item 4). A guest's upload to one of the
 * member's file requests is the guest's: only the guest can resume it (with their upload token),
 * so the owner is never told to "resume" it, and it is never named after the owner.
 */

interface PendingShare {
  username: string | null;
  received: { name: string } | null;
}

/**
 * The banner above the upload form: the member's own interrupted uploads, then guests' (which
 * only their senders can resume), in the page's language.
 * i18n-keys: upload.interruptedOwn, upload.interruptedGuests
 */
export function interruptedNotice(own: number, guests: number, t: (key: 'interruptedOwn' | 'interruptedGuests', values: { count: number }) => string): string {
  const parts: string[] = [];
  if (own > 0) parts.push(t('interruptedOwn', { count: own }));
  if (guests > 0) parts.push(t('interruptedGuests', { count: guests }));
  return parts.join(' ');
}

/** The words discardWording needs (the `shares` namespace: `discard…`, `abort…`). */
export type DiscardKey = 'discard' | 'discardTitle' | 'discardGuestTitle' | 'discardGuestText' | 'stopText' | 'abortUpload' | 'abortTitle';

/**
 * The discard button and its dialog for a pending share: the caller's own, a guest's, or
 * another member's. A guest's upload is named after the guest's own words ("Dana"), shortened.
 */
export function discardWording(share: PendingShare, mine: boolean, t: (key: DiscardKey, values?: Record<string, string>) => string): { button: string; title: string; text: string } {
  const gone = t('stopText');
  if (mine) return { button: t('discard'), title: t('discardTitle'), text: gone };
  if (share.received) {
    const name = share.received.name.trim();
    const short = name.length > 40 ? `${name.slice(0, 39)}…` : name;
    return {
      button: t('discard'),
      title: t('discardGuestTitle', { named: short ? 'yes' : 'no', name: short }),
      text: t('discardGuestText', { gone }),
    };
  }
  return { button: t('abortUpload'), title: t('abortTitle', { named: share.username ? 'yes' : 'no', name: share.username ?? '' }), text: gone };
}
