/**
 * Turns a drop or a file picker into (file, relative path) pairs, walking dropped folders
 * (webkitGetAsEntry) so a dropped `site/` keeps `site/css/app.css`.
 */
export interface PickedFile {
  file: File;
  path: string;
}

type Entry = FileSystemEntry & { isFile: boolean; isDirectory: boolean; fullPath: string };

export async function filesFromDrop(dt: DataTransfer): Promise<PickedFile[]> {
  const entries = [...dt.items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.() as Entry | null)
    .filter((e): e is Entry => Boolean(e));
  if (entries.length === 0) return filesFromList(dt.files);
  const out: PickedFile[] = [];
  for (const e of entries) await walk(e, out);
  return out;
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
