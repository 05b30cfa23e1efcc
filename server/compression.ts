// Page bodies compressed for the browsers that accept it: which encoding a
// request accepts, and the body in it. Pages are compressed once each (the
// page cache keeps the copies, page-cache.ts), or per response for a page
// not kept, in a thread of their own (compression-thread.ts, decision 099).
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export type Encoding = "br" | "gzip";

/** Below this, compressing costs more than it saves (as the compression middleware's default). */
export const MIN_COMPRESSED_BYTES = 1024;

const accepted = new Map<string, { br: boolean; gzip: boolean }>();

/** Which encodings an Accept-Encoding header takes (q=0 refuses; * takes both). */
function acceptedBy(header: string): { br: boolean; gzip: boolean } {
  const known = accepted.get(header);
  if (known !== undefined) return known;
  const takes = { br: false, gzip: false };
  for (const part of header.toLowerCase().split(",")) {
    const [name = "", ...params] = part.split(";").map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (name === "br") takes.br = true;
    else if (name === "gzip" || name === "x-gzip") takes.gzip = true;
    else if (name === "*") {
      takes.br = true;
      takes.gzip = true;
    }
  }
  if (accepted.size > 256) accepted.clear();
  accepted.set(header, takes);
  return takes;
}

/** The encoding to send for an Accept-Encoding header: br, else gzip, else none (q=0 refuses). */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const takes = acceptedBy(header);
  return takes.br ? "br" : takes.gzip ? "gzip" : null;
}

/** Whether an Accept-Encoding header takes `encoding`. */
export function acceptsEncoding(header: string | undefined, encoding: Encoding): boolean {
  return header ? acceptedBy(header)[encoding] : false;
}

/**
 * A page kept (compressed once, sent many times): brotli at quality 5, on a
 * 32 kB page ~0.8 ms for 7.6 kB, where quality 9 takes ~30 ms for 7.5 kB and
 * 11 ~95 ms for 6.9 kB (the first visitor waits for it); gzip at its default
 * level. Measured on a 51 kB post page (2026-11-27, this 2-core host):
 * brotli 5 1.13 ms for 11.7 kB, 3 0.42 ms for 13.6 kB, 1 0.17 ms for
 * 15.2 kB, 0 0.13 ms for 15.5 kB; gzip 6 1.22 ms for 12.5 kB, 3 0.46 ms for
 * 14.0 kB, 1 0.40 ms for 14.7 kB (a Hindi post of 58 kB: brotli 0 0.14 ms for
 * 16.9 kB, 3 0.48 ms for 14.7 kB). Brotli's fastest qualities cost a third
 * of gzip's for the same size here.
 */
export function compress(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === "gzip") return gzipSync(body);
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}
