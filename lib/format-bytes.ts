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

/**
 * Two sizes said side by side ("at most 15 MB; these files are 15.3 MB"): with more precision
 * when the usual rounding would make different sizes read the same (issue 41, item 11).
 */
export function formatBytesPair(a: number, b: number): [string, string] {
  const [fa, fb] = [formatBytes(a), formatBytes(b)];
  if (fa !== fb || a === b) return [fa, fb];
  const i = Math.min(UNITS.length - 1, Math.max(0, Math.floor(Math.log(Math.max(a, b, 1)) / Math.log(1024))));
  const exact = (n: number) => `${(n / 1024 ** i).toFixed(2)} ${UNITS[i]}`;
  if (exact(a) !== exact(b)) return [exact(a), exact(b)];
  return [`${a.toLocaleString('en-US')} bytes`, `${b.toLocaleString('en-US')} bytes`];
}

export const BYTE_UNITS = UNITS;
