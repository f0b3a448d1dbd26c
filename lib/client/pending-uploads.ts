/**
 * The console's memory of its unfinished uploads, in IndexedDB: for each group, the files'
 * paths, sizes and modification times (to match them when the user picks them again), which
 * parts arrived, and — where the browser has them — file handles, so no re-pick is needed.
 * It survives a reload, a crash and a closed tab; the server's upload/status stays the truth.
 */
export interface PendingFile {
  clientPath: string;
  size: number;
  lastModified: number;
}

export interface PendingUpload {
  groupId: string;
  /** Who started it (null: the Admin Token): one browser may serve several accounts. */
  ownerId: string | null;
  createdAt: string;
  note: string;
  files: PendingFile[];
  /** "uploadId:partNumber" of the parts the store confirmed. */
  partsDone: string[];
  totalParts: number;
  /** Handles of what was dropped (Chromium): read again after a permission prompt. */
  handles?: FileSystemHandle[];
  /** A guest's upload to a file request (ownerId `request:<id>`): the upload token, its only credential. */
  uploadToken?: string;
  /**
   * Files being added to this published share (init with share_id): the group is the addition,
   * never listed itself; resuming it continues the addition.
   */
  addsTo?: string;
}

const DB = 'htmls-uploads';
const STORE = 'pending';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'groupId' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function run<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Nothing is kept where IndexedDB is unavailable (private modes of some browsers): resume then asks for the files. */
const safely = <T>(p: () => Promise<T>, fallback: T) => (typeof indexedDB === 'undefined' ? Promise.resolve(fallback) : p().catch(() => fallback));

export const listPendingUploads = () => safely(() => run<PendingUpload[]>('readonly', (s) => s.getAll()), []);
export const savePendingUpload = (u: PendingUpload) => safely(() => run('readwrite', (s) => s.put(u)).then(() => undefined), undefined);
export const forgetPendingUpload = (groupId: string) => safely(() => run('readwrite', (s) => s.delete(groupId)).then(() => undefined), undefined);

export async function markPartDone(groupId: string, part: string): Promise<void> {
  const all = await listPendingUploads();
  const u = all.find((x) => x.groupId === groupId);
  if (u && !u.partsDone.includes(part)) await savePendingUpload({ ...u, partsDone: [...u.partsDone, part] });
}
