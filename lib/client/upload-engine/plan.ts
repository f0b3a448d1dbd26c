import type { InitFile, UploadStatusFile } from '../../contract/upload-protocol';

export interface PartJob {
  file: InitFile;
  partNumber: number;
  /** Byte offsets in the local file; end exclusive. */
  start: number;
  end: number;
}

export interface StoredPart {
  partNumber: number;
  etag: string;
}

/** Every part of every file: all but the last exactly partSize bytes, at least one per file. */
export function planParts(files: InitFile[], sizes: Map<string, number>, partSize: number): PartJob[] {
  const jobs: PartJob[] = [];
  for (const file of files) {
    const size = sizes.get(file.clientPath) ?? 0;
    for (let n = 1; n <= file.partCount; n++) {
      const start = (n - 1) * partSize;
      jobs.push({ file, partNumber: n, start, end: Math.min(size, start + partSize) });
    }
  }
  return jobs;
}

/**
 * Splits the plan into parts the store already holds (from upload/status) and parts to send.
 * A part listed with another size than planned (cut short by a crash) is sent again; a file an
 * earlier complete already merged counts as stored whole.
 */
export function splitByStatus(jobs: PartJob[], status: UploadStatusFile[]): { stored: Map<PartJob, StoredPart>; todo: PartJob[] } {
  const byUpload = new Map(status.map((f) => [f.uploadId, f]));
  const stored = new Map<PartJob, StoredPart>();
  const todo: PartJob[] = [];
  for (const job of jobs) {
    const f = byUpload.get(job.file.uploadId);
    const part = f?.parts.find((p) => p.partNumber === job.partNumber);
    if (f?.completed) stored.set(job, { partNumber: job.partNumber, etag: '' });
    else if (part && part.size === job.end - job.start) stored.set(job, { partNumber: job.partNumber, etag: part.etag });
    else todo.push(job);
  }
  return { stored, todo };
}
