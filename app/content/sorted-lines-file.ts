// A data file of sorted lines read once and searched by bisection: the
// English pronunciations romanised search looks up (app/search/
// english-pronunciation.ts) and the English loanwords of Roman letters
// (english-loanwords.ts). Each line is a key, then optionally a space and the
// rest; lines starting with # at the top are a header. The file is read
// whole, on the first lookup, into one string: no parsing, no per-line
// objects. It is found by walking up from this module, so the same code reads
// it from app/ in the sources and from the checkout's root in the built
// server (build/server/). Node's modules are taken from
// process.getBuiltinModule when called, not imported: these modules are also
// in the browser's module graph, which must hold neither fs nor the data.
// Without the file (or outside Node), every lookup finds nothing.

export interface SortedLinesFile {
  /** The rest of the line whose key this is ("" for a line of the key alone); undefined if none. */
  lookup(key: string): string | undefined;
}

interface Loaded {
  text: string;
  /** Where the sorted lines start (after the # header). */
  start: number;
}

function readFile(relativePath: string): Loaded {
  const empty = { text: "", start: 0 };
  if (typeof process === "undefined" || typeof process.getBuiltinModule !== "function") return empty;
  const fs = process.getBuiltinModule("node:fs");
  const path = process.getBuiltinModule("node:path");
  const { fileURLToPath } = process.getBuiltinModule("node:url");
  const candidates: string[] = [];
  try {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    for (;;) {
      candidates.push(path.join(dir, relativePath));
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  } catch {
    // Not a file: URL (a bundle evaluated from memory): the working directory below.
  }
  candidates.push(path.join(process.cwd(), relativePath));
  const file = candidates.find((candidate) => fs.existsSync(candidate));
  if (!file) return empty;
  const text = fs.readFileSync(file, "latin1");
  let start = 0;
  while (text.startsWith("#", start)) start = text.indexOf("\n", start) + 1;
  return { text, start };
}

/** The file at relativePath (from the project's root), read on its first lookup. */
export function sortedLinesFile(relativePath: string): SortedLinesFile {
  let loaded: Loaded | undefined;
  return {
    lookup(wanted) {
      loaded ??= readFile(relativePath);
      const { text, start } = loaded;
      // Bisect on line starts: [low, high) are character offsets; each probe reads the line around mid.
      let low = start;
      let high = text.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        const lineStart = Math.max(text.lastIndexOf("\n", mid - 1) + 1, low);
        let lineEnd = text.indexOf("\n", lineStart);
        if (lineEnd === -1) lineEnd = text.length;
        // The space is looked for in the line only: a run of lines without one would be read to its end.
        const line = text.slice(lineStart, lineEnd);
        const space = line.indexOf(" ");
        const key = space === -1 ? line : line.slice(0, space);
        if (key === wanted) return space === -1 ? "" : line.slice(space + 1);
        if (key < wanted) low = lineEnd + 1;
        else high = lineStart;
      }
      return undefined;
    },
  };
}
