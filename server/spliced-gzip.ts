// A gzip body made of parts compressed apart, so that the parts that do not
// change are compressed once: the home (home-page.ts) is one template around
// a fresh gallery per visitor, and compressing all of it again for each one
// (brotli 3: ~0.45 ms of a ~2 ms response at 100,000 posts) cost more than
// drawing the gallery. Each part is raw deflate ending on a byte boundary
// with the stream left open (Z_SYNC_FLUSH), the last one closing it; a part
// compressed on its own refers to nothing before it, so the parts placed one
// after another are one valid deflate stream (as pigz compresses a file in
// parts). The gzip frame around them carries the CRC-32 and length of the
// whole text (RFC 1952).
import { constants, crc32, deflateRawSync } from "node:zlib";

/** A gzip member's header: deflate, no name or time, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * One part compressed on its own, the stream left open (or closed, for the
 * last part). `windowBits` 12 for a part of a few kB made for one response:
 * a 4 kB window holds it, and its compressor is set up in a third of the
 * default's time (18 against 48 µs for a 2.4 kB part).
 */
export function deflatedPart(
  text: Buffer,
  { level, last = false, windowBits = 15 }: { level: number; last?: boolean; windowBits?: number },
): Buffer {
  return deflateRawSync(text, {
    level,
    windowBits,
    finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
  });
}

/**
 * The gzip of `whole` (a text, or its pieces in order), made of its parts
 * compressed apart, in order (deflatedPart; the last closes the stream).
 */
export function splicedGzip(whole: Buffer | readonly Buffer[], parts: readonly Buffer[]): Buffer {
  let crc = 0;
  let length = 0;
  for (const piece of Buffer.isBuffer(whole) ? [whole] : whole) {
    crc = crc32(piece, crc);
    length += piece.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  return Buffer.concat([HEADER, ...parts, trailer]);
}
