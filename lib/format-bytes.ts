const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Binary units, as the contract counts them: 1 MB = 1,048,576 bytes. For people, on both sides. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  let i = 0;
  let v = n;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  // Whole bytes: a speed (bytes over seconds) is no count of bytes, and "206.06060606060606 B/s" helps no one.
  return `${i === 0 ? Math.round(v) : v.toFixed(v < 10 ? 1 : 0)} ${UNITS[i]}`;
}

export const BYTE_UNITS = UNITS;
