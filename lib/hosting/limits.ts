const GiB = 1024 ** 3;

/** Bounds of one site upload (form or zip); every byte a client sends is counted against them. */
export const HOSTED_LIMITS = {
  files: 10_000,
  totalBytes: 5 * GiB,
  noteChars: 2000,
  passwordChars: 256,
  /** Entries of one zip, left-out ones included (the kept files are bounded by `files`). */
  zipEntries: 100_000,
  /** A zip entry may expand at most this much, and no entry past 1 GiB. */
  zipEntryBytes: GiB,
  zipRatio: 100,
  /** Small entries may compress extremely well (a page of spaces): the ratio applies from this size on, to each entry and to the whole archive. */
  zipRatioFloorBytes: 1024 * 1024,
};
