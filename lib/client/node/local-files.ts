/** The files under the paths a command names, as they will be named in a share or a site. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isJunk } from '../collect-files';
import { isPrivatePath } from '../private-paths';

export interface LocalFile {
  /** Absolute path on disk. */
  file: string;
  /** Path inside the share or site. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface CollectedFiles {
  files: LocalFile[];
  /** Paths left out as private (.git/, .env*, .hg/, .svn/, node_modules/). */
  skipped: string[];
}

/**
 * Every file under the given files and folders; a folder keeps its own name as the top folder
 * Private paths stay home unless `includePrivate`: their folders are not even walked.
 */
export async function collectFiles(inputs: string[], opts: { includePrivate?: boolean } = {}): Promise<CollectedFiles> {
  const files: LocalFile[] = [];
  const skipped: string[] = [];
  const walk = async (abs: string, rel: string) => {
    const st = await stat(abs);
    if (st.isDirectory()) {
      for (const e of (await readdir(abs)).sort()) {
        if (isJunk(e)) continue;
        const childRel = rel ? `${rel}/${e}` : e;
        if (!opts.includePrivate && isPrivatePath(e)) {
          skipped.push(childRel);
          continue;
        }
        await walk(path.join(abs, e), childRel);
      }
    } else if (st.isFile()) {
      files.push({ file: abs, path: rel, size: st.size, mtimeMs: st.mtimeMs });
    }
  };
  for (const input of inputs) {
    const abs = path.resolve(input);
    await walk(abs, path.basename(abs));
  }
  return { files, skipped };
}
