/**
 * The byte layout of a STORE-only ZIP whose every offset — and so its exact length — is known
 * from names and sizes alone, before any byte is read. That is what lets the "Download all" ZIP
 * send a Content-Length, an ETag and answer Range requests: any byte range of the archive maps
 * back to a header we can rebuild, a slice of one object, or a CRC we can look up.
 *
 * Layout, in order: for every entry a local header (CRC and sizes zero, flag bit 3), the
 * stored bytes, then (files only) a data descriptor with the CRC-32 and sizes; then the central
 * directory, the ZIP64 end records when any count, size or offset needs them, and the end of
 * central directory record. Names are UTF-8 (flag bit 11). An entry larger than 0xFFFFFFFE
 * bytes, or one whose header starts past 4 GiB, carries a ZIP64 extra field.
 *
 * Pure functions, no I/O: lib/shares/stream-share-zip.ts streams a plan.
 */

export interface ZipInputEntry {
  /** Path inside the archive; folders end with "/". */
  name: string;
  size: number;
  mtime: Date;
}

export interface PlannedEntry {
  name: Buffer;
  dir: boolean;
  size: number;
  dosTime: number;
  dosDate: number;
  /** Sizes do not fit 32 bits: ZIP64 extra in both headers, 8-byte sizes in the descriptor. */
  zip64Size: boolean;
  /** The local header starts at or past 0xFFFFFFFF: the central header carries it in ZIP64. */
  zip64Offset: boolean;
  /** Offset of the local header. */
  offset: number;
  headerLength: number;
  /** Offset of the first stored byte. */
  dataStart: number;
  /** 0 for folders. */
  descriptorLength: number;
}

export interface ZipPlan {
  entries: PlannedEntry[];
  centralOffset: number;
  centralLength: number;
  /** Central directory plus end records. */
  tailLength: number;
  zip64End: boolean;
  total: number;
}

const U32 = 0xffffffff;
const U16 = 0xffff;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
/** Made by 4.5 on Unix, so the external attributes carry Unix modes. */
const MADE_BY = (3 << 8) | 45;

export function planZip(input: ZipInputEntry[]): ZipPlan {
  let offset = 0;
  const entries: PlannedEntry[] = input.map((e) => {
    const dir = e.name.endsWith('/');
    const size = dir ? 0 : e.size;
    const name = Buffer.from(e.name, 'utf8');
    const zip64Size = size >= U32;
    const headerLength = 30 + name.length + (zip64Size ? 20 : 0);
    const descriptorLength = dir ? 0 : zip64Size ? 24 : 16;
    const { time, date } = dosDateTime(e.mtime);
    const planned: PlannedEntry = {
      name,
      dir,
      size,
      dosTime: time,
      dosDate: date,
      zip64Size,
      zip64Offset: offset >= U32,
      offset,
      headerLength,
      dataStart: offset + headerLength,
      descriptorLength,
    };
    offset += headerLength + size + descriptorLength;
    return planned;
  });
  const centralOffset = offset;
  const centralLength = entries.reduce((n, e) => n + 46 + e.name.length + centralExtraLength(e), 0);
  const zip64End = entries.length >= U16 || centralLength >= U32 || centralOffset >= U32;
  const tailLength = centralLength + (zip64End ? 56 + 20 : 0) + 22;
  return { entries, centralOffset, centralLength, tailLength, zip64End, total: centralOffset + tailLength };
}

function centralExtraLength(e: PlannedEntry): number {
  const fields = (e.zip64Size ? 2 : 0) + (e.zip64Offset ? 1 : 0);
  return fields ? 4 + 8 * fields : 0;
}

const versionNeeded = (e: PlannedEntry) => (e.zip64Size || e.zip64Offset ? 45 : 20);
const flags = (e: PlannedEntry) => FLAG_UTF8 | (e.dir ? 0 : FLAG_DESCRIPTOR);

export function localHeader(e: PlannedEntry): Buffer {
  const b = Buffer.alloc(e.headerLength);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(e.zip64Size ? 45 : 20, 4);
  b.writeUInt16LE(flags(e), 6);
  b.writeUInt16LE(0, 8); // STORE
  b.writeUInt16LE(e.dosTime, 10);
  b.writeUInt16LE(e.dosDate, 12);
  // CRC-32 and sizes follow in the data descriptor (bit 3); ZIP64 marks them as such.
  b.writeUInt32LE(0, 14);
  b.writeUInt32LE(e.zip64Size ? U32 : 0, 18);
  b.writeUInt32LE(e.zip64Size ? U32 : 0, 22);
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(e.zip64Size ? 20 : 0, 28);
  e.name.copy(b, 30);
  if (e.zip64Size) {
    const x = 30 + e.name.length;
    b.writeUInt16LE(0x0001, x);
    b.writeUInt16LE(16, x + 2); // two zero sizes (they are in the descriptor)
  }
  return b;
}

export function dataDescriptor(e: PlannedEntry, crc: number): Buffer {
  const b = Buffer.alloc(e.descriptorLength);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(crc >>> 0, 4);
  if (e.zip64Size) {
    b.writeBigUInt64LE(BigInt(e.size), 8);
    b.writeBigUInt64LE(BigInt(e.size), 16);
  } else {
    b.writeUInt32LE(e.size, 8);
    b.writeUInt32LE(e.size, 12);
  }
  return b;
}

/** The central directory and end records; `crcOf(i)` is the CRC-32 of entry i (0 for folders). */
export function zipTail(plan: ZipPlan, crcOf: (index: number) => number): Buffer {
  const b = Buffer.alloc(plan.tailLength);
  let p = 0;
  plan.entries.forEach((e, i) => {
    const extra = centralExtraLength(e);
    b.writeUInt32LE(0x02014b50, p);
    b.writeUInt16LE(MADE_BY, p + 4);
    b.writeUInt16LE(versionNeeded(e), p + 6);
    b.writeUInt16LE(flags(e), p + 8);
    b.writeUInt16LE(0, p + 10);
    b.writeUInt16LE(e.dosTime, p + 12);
    b.writeUInt16LE(e.dosDate, p + 14);
    b.writeUInt32LE(e.dir ? 0 : crcOf(i) >>> 0, p + 16);
    b.writeUInt32LE(e.zip64Size ? U32 : e.size, p + 20);
    b.writeUInt32LE(e.zip64Size ? U32 : e.size, p + 24);
    b.writeUInt16LE(e.name.length, p + 28);
    b.writeUInt16LE(extra, p + 30);
    // comment length, disk number, internal attributes: 0
    b.writeUInt32LE((e.dir ? (0o40755 << 16) | 0x10 : 0o100644 << 16) >>> 0, p + 38);
    b.writeUInt32LE(e.zip64Offset ? U32 : e.offset, p + 42);
    e.name.copy(b, p + 46);
    let x = p + 46 + e.name.length;
    if (extra) {
      b.writeUInt16LE(0x0001, x);
      b.writeUInt16LE(extra - 4, x + 2);
      x += 4;
      if (e.zip64Size) {
        b.writeBigUInt64LE(BigInt(e.size), x);
        b.writeBigUInt64LE(BigInt(e.size), x + 8);
        x += 16;
      }
      if (e.zip64Offset) b.writeBigUInt64LE(BigInt(e.offset), x);
    }
    p += 46 + e.name.length + extra;
  });
  const count = plan.entries.length;
  if (plan.zip64End) {
    const end64 = plan.centralOffset + plan.centralLength;
    b.writeUInt32LE(0x06064b50, p);
    b.writeBigUInt64LE(44n, p + 4);
    b.writeUInt16LE(MADE_BY, p + 12);
    b.writeUInt16LE(45, p + 14);
    // this disk, disk of the central directory: 0
    b.writeBigUInt64LE(BigInt(count), p + 24);
    b.writeBigUInt64LE(BigInt(count), p + 32);
    b.writeBigUInt64LE(BigInt(plan.centralLength), p + 40);
    b.writeBigUInt64LE(BigInt(plan.centralOffset), p + 48);
    p += 56;
    b.writeUInt32LE(0x07064b50, p);
    b.writeBigUInt64LE(BigInt(end64), p + 8);
    b.writeUInt32LE(1, p + 16);
    p += 20;
  }
  b.writeUInt32LE(0x06054b50, p);
  b.writeUInt16LE(Math.min(count, U16), p + 8);
  b.writeUInt16LE(Math.min(count, U16), p + 10);
  b.writeUInt32LE(Math.min(plan.centralLength, U32), p + 12);
  b.writeUInt32LE(Math.min(plan.centralOffset, U32), p + 16);
  return b;
}

/** MS-DOS date and time fields, in UTC (the format has no zone), clamped to 1980–2107. */
export function dosDateTime(d: Date): { time: number; date: number } {
  const t = Math.min(Math.max(d.getTime(), Date.UTC(1980, 0, 1)), Date.UTC(2107, 11, 31, 23, 59, 58));
  const u = new Date(t);
  return {
    time: (u.getUTCHours() << 11) | (u.getUTCMinutes() << 5) | (u.getUTCSeconds() >> 1),
    date: ((u.getUTCFullYear() - 1980) << 9) | ((u.getUTCMonth() + 1) << 5) | u.getUTCDate(),
  };
}
