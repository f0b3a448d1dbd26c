/**
 * What the server hands the guest pages to render (lib/http/pages/): plain data, shared by the
 * page-data functions on the server and the pages' components (STYLE rule 17: no client code
 * imports a server module, not even for a type).
 */
import type { PreviewKind } from './dtos';

/**
 * One item as the share page ships it: [relative path, size, preview kind, picture] — compact for
 * 500 rows. `picture`: its poster frame (a video) or thumbnail (an image) once made, at
 * `<item URL>?poster`, as [width, height, the video's duration in ms or null].
 */
export type ShareViewItem = [path: string, size: number, preview: PreviewKind, picture?: [width: number, height: number, durationMs: number | null] | null];

/** The share's download limit as the page shows it. */
export type DownloadLimit = { max: number; left: number };

/** The share page's data (/f/<id>). */
export interface ViewShare {
  id: string;
  note: string;
  /** The owner's display name (else username); null for a share made with the Admin Token (the page names the administrator in its language). */
  sharedBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  totalBytes: number;
  items: ShareViewItem[];
  /** The download limit and what is left of it (null: unlimited). */
  limit: DownloadLimit | null;
}

/** The file request's upload page data (/r/<id>). */
export interface GuestRequestView {
  id: string;
  note: string;
  ownerName: string;
  expiresAt: string | null;
  maxFiles: number;
  /** The smaller of the request's limit and what its owner has free (byQuota: the latter). */
  maxBytes: number;
  byQuota: boolean;
  limitedFiles: boolean;
  limitedBytes: boolean;
  allowedTypes: string[] | null;
  requireName: boolean;
  unlock: string | null;
}
