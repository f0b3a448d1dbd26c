/**
 * How the console words an unfinished upload (issue 41, item 4). A guest's upload to one of the
 * member's file requests is the guest's: only the guest can resume it (with their upload token),
 * so the owner is never told to "resume" it, and it is never named after the owner.
 */

interface PendingShare {
  username: string | null;
  received: { name: string } | null;
}

/** "Dana’s upload", "a guest’s upload" (names are the guest's own words: shortened, quoted). */
export function guestUploadName(received: { name: string }): string {
  const name = received.name.trim();
  if (!name) return 'a guest’s upload';
  const short = name.length > 40 ? `${name.slice(0, 39)}…` : name;
  return `“${short}”’s upload`;
}

/**
 * The banner above the upload form: the member's own interrupted uploads, then guests' (which
 * only their senders can resume), in the page's language (`upload.interruptedOwn`, `…Guests`).
 */
export function interruptedNotice(own: number, guests: number, t: (key: 'interruptedOwn' | 'interruptedGuests', values: { count: number }) => string): string {
  const parts: string[] = [];
  if (own > 0) parts.push(t('interruptedOwn', { count: own }));
  if (guests > 0) parts.push(t('interruptedGuests', { count: guests }));
  return parts.join(' ');
}

/** The discard button and its dialog for a pending share: the caller's own, a guest's, or another member's. */
export function discardWording(share: PendingShare, mine: boolean): { button: string; title: string; text: string } {
  const gone = 'The parts uploaded so far are deleted and the quota they hold is freed. This cannot be undone.';
  if (mine) return { button: 'Discard', title: 'Discard this upload?', text: gone };
  if (share.received) {
    return {
      button: 'Discard',
      title: `Discard ${guestUploadName(share.received)}?`,
      text: `A guest started this upload through your file request and has not finished it; only they can resume it. ${gone}`,
    };
  }
  return { button: 'Abort upload', title: `Abort ${share.username ? `${share.username}’s` : 'this'} upload?`, text: gone };
}
