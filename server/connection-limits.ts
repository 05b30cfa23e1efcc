// Slow and idle clients hold a file descriptor and some memory each. Node's
// defaults keep a silent socket for 60 s of headers plus up to 30 s until it
// checks, and a slow body for 300 s; a few thousand of them exhaust a
// process's descriptors. Here: headers within HEADERS_TIMEOUT_MS, the whole
// request within REQUEST_TIMEOUT_MS, checked every second; idle keep-alive
// sockets closed after KEEP_ALIVE_TIMEOUT_MS; and a cap on open connections
// that, when reached, closes the oldest idle ones (never a request being
// answered) rather than refuse the visitor who just arrived.
import { readFileSync } from "node:fs";
import type { Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";

export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 20_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Options for http.createServer: the timeouts above, checked every second. */
export const SERVER_TIMEOUTS = {
  headersTimeout: HEADERS_TIMEOUT_MS,
  requestTimeout: REQUEST_TIMEOUT_MS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  connectionsCheckingInterval: 1_000,
} satisfies ServerOptions;

/** Descriptors kept free for the database, static files, fonts and logs. */
const RESERVED_DESCRIPTORS = 256;

/** The default cap: what the process's open-file limit leaves, at most 16,384. */
export function defaultMaxConnections(): number {
  let limit = 4096;
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isFinite(soft) && soft > 0) limit = soft;
  } catch {
    // No /proc (not Linux): the default of 4,096 stands.
  }
  return Math.max(64, Math.min(16_384, limit - RESERVED_DESCRIPTORS));
}

interface Tracked {
  /** Requests on this socket not answered yet. */
  busy: number;
  /** When it last had nothing to answer (connected, or sent its last response). */
  idleSince: number;
}

/**
 * Keeps at most `maxConnections` sockets open: each new one past the cap
 * closes the socket idle the longest (one that has not sent a whole request
 * yet counts as idle: slow senders go first). And closes every socket that
 * has been idle, without a complete request, for HEADERS_TIMEOUT_MS: Node's
 * own headersTimeout check misses silent sockets while another connection
 * is mid-request (seen on Node 20: a silent socket held past 30 s).
 */
export function capConnections(server: Server, maxConnections: number): void {
  // Each socket's state is made once, when it connects: a request only counts
  // on it (reordering the Map on every response made V8 rebuild its table,
  // garbage for the old generation's collections, decision 079). The scans
  // below (a connection past the cap, the sweep once a second) read them all.
  const sockets = new Map<Socket, Tracked>();
  server.on("connection", (socket: Socket) => {
    sockets.set(socket, { busy: 0, idleSince: Date.now() });
    socket.once("close", () => sockets.delete(socket));
    if (sockets.size <= maxConnections) return;
    let longest: Socket | null = null;
    let since = Number.POSITIVE_INFINITY;
    for (const [candidate, state] of sockets) {
      if (candidate !== socket && state.busy === 0 && state.idleSince < since) {
        longest = candidate;
        since = state.idleSince;
      }
    }
    if (longest) {
      longest.destroy();
      sockets.delete(longest);
    }
  });
  server.on("request", (req, res) => {
    const state = sockets.get(req.socket);
    if (!state) return;
    state.busy++;
    res.once("close", () => {
      state.busy--;
      if (state.busy === 0) state.idleSince = Date.now();
    });
  });
  const sweep = setInterval(() => {
    const before = Date.now() - HEADERS_TIMEOUT_MS;
    for (const [socket, state] of sockets) {
      if (state.busy > 0 || state.idleSince > before) continue;
      socket.destroy();
      sockets.delete(socket);
    }
  }, 1_000).unref();
  server.once("close", () => clearInterval(sweep));
}
