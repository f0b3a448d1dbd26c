/**
 * CRC-32 (the ZIP/zlib polynomial) of two byte runs joined, from each run's CRC and the second
 * run's length, as zlib's crc32_combine: crc(A‖B) = crc(A)·x^(8·|B|) mod P ⊕ crc(B). Parts
 * uploaded through the server are hashed as they stream; completing the file combines them,
 * so the "Download all" ZIP never has to read a proxy-uploaded file just for its CRC.
 */
const POLY = 0xedb88320;

/** a·b mod P, both reflected 32-bit polynomials. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) mod P. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1], X2N[k - 1]));

/** x^(n·2^k) mod P, for any safe integer n ≥ 0. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31], p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (!Number.isSafeInteger(len2) || len2 < 0) throw new RangeError(`bad length ${len2}`);
  return (multModP(x2nModP(len2, 3), crc1 >>> 0) ^ crc2) >>> 0;
}

/** The CRC-32 of parts joined in order, from each part's CRC and size. */
export function crc32OfParts(parts: { crc32: number; size: number }[]): number {
  return parts.reduce((crc, p, i) => (i === 0 ? p.crc32 >>> 0 : crc32Combine(crc, p.crc32, p.size)), 0);
}
