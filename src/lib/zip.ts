import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  content: Buffer | string;
  modifiedAt?: Date;
}

const LIMIT = 0xffff_ffff;

/** MS-DOS date and time of an instant (UTC), the only timestamp a plain ZIP header holds. */
function dosDateTime(at: Date): { date: number; time: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
  };
}

/**
 * A ZIP archive (PKWARE APPNOTE 6.3) in memory: per entry a local header and its data
 * (DEFLATE, or STORED when deflating does not shrink it), then the central directory and the
 * end record. Names are UTF-8 (flag bit 11). No ZIP64: entries and archive stay under 4 GiB.
 */
export function zipFiles(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > 0xffff) throw new Error('zip: more than 65535 entries');
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content;
    const deflated = deflateRawSync(raw);
    const stored = deflated.length >= raw.length;
    const data = stored ? raw : deflated;
    if (raw.length > LIMIT || data.length > LIMIT) throw new Error(`zip: ${entry.name} exceeds 4 GiB`);
    const name = Buffer.from(entry.name, 'utf8');
    const { date, time } = dosDateTime(entry.modifiedAt ?? new Date(Date.UTC(1980, 0, 1)));
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by: 2.0
    header.writeUInt16LE(20, 6);
    local.copy(header, 8, 6, 28); // flags .. name length, identical to the local header
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, data);
    offset += local.length + name.length + data.length;
    if (offset > LIMIT) throw new Error('zip: archive exceeds 4 GiB');
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
