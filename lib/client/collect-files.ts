/**
 * Turns a drop or a file picker into (file, relative path) pairs, walking dropped folders
 * (webkitGetAsEntry) so a dropped `site/` keeps `site/css/app.css`.
 */
export interface PickedFile {
  file: File;
  path: string;
}

type Entry = FileSystemEntry & { isFile: boolean; isDirectory: boolean; fullPath: string };

type HandleItem = DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };
type ReadableHandle = FileSystemHandle & { requestPermission?: (d: { mode: 'read' }) => Promise<PermissionState> };

/**
 * The files of a drop, and (in Chromium) handles to what was dropped, kept so an interrupted
 * upload can read the same files again without asking. Call it in the drop handler itself:
 * the items are gone once the event ends, so both are taken before the first await.
 */
export async function filesAndHandlesFromDrop(dt: DataTransfer): Promise<{ files: PickedFile[]; handles: FileSystemHandle[] }> {
  const items = [...dt.items].filter((i) => i.kind === 'file');
  const entries = items.map((i) => i.webkitGetAsEntry?.() as Entry | null).filter((e): e is Entry => Boolean(e));
  const handlePromises = items.map((i) => (i as HandleItem).getAsFileSystemHandle?.().catch(() => null) ?? Promise.resolve(null));
  const fallback = entries.length === 0 ? filesFromList(dt.files) : null;
  const handles = (await Promise.all(handlePromises)).filter((h): h is FileSystemHandle => h !== null);
  if (fallback) return { files: fallback, handles };
  const out: PickedFile[] = [];
  for (const e of entries) await walk(e, out);
  return { files: out, handles: handles.length === entries.length ? handles : [] };
}

export const filesFromDrop = async (dt: DataTransfer): Promise<PickedFile[]> => (await filesAndHandlesFromDrop(dt)).files;

/**
 * The files under handles kept from a drop, with the paths the drop gave them. Asks for read
 * permission again (the browser prompts; it needs the click that called this). Null when a
 * handle is refused or gone.
 */
export async function filesFromHandles(handles: FileSystemHandle[]): Promise<PickedFile[] | null> {
  const out: PickedFile[] = [];
  try {
    for (const h of handles as ReadableHandle[]) {
      if ((await h.requestPermission?.({ mode: 'read' })) === 'denied') return null;
      await walkHandle(h, h.name, out);
    }
    return out;
  } catch {
    return null;
  }
}

async function walkHandle(h: FileSystemHandle, path: string, out: PickedFile[]): Promise<void> {
  if (h.kind === 'file') {
    out.push({ file: await (h as FileSystemFileHandle).getFile(), path });
    return;
  }
  for await (const child of (h as FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> }).values()) {
    await walkHandle(child, `${path}/${child.name}`, out);
  }
}

async function walk(entry: Entry, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as unknown as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, path: entry.fullPath.replace(/^\/+/, '') });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as unknown as FileSystemDirectoryEntry).createReader();
  // readEntries returns batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries((r) => resolve(r as Entry[]), reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out);
  }
}

/** From <input type="file" multiple> or <input webkitdirectory>. */
export function filesFromList(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => ({ file, path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name }));
}

/** Hidden system files nobody means to share. */
export const isJunk = (path: string) => /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path);
