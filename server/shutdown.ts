// Graceful stop on SIGTERM/SIGINT (docs/decisions/006-production-server.md).
import type { Server } from "node:http";
import net from "node:net";
import type { Logger } from "./logger.ts";

const QUIET_MS = 250;
const MAX_DRAIN_MS = 5_000;

/**
 * Stops accepting, but unlike http.Server#close does not drop connections
 * already accepted whose request is not read yet: they are in flight.
 * Closing the listener resets whatever still waits in the kernel's accept
 * queue, so it keeps accepting (answers say Connection: close, /healthz says
 * 503: `markStopping`) until no connection has arrived for a quiet period,
 * bounded; then closes, waits for requests in flight, and calls `closed`.
 */
export function stopOnSignal(
  server: Server,
  { logger, markStopping, closed }: { logger: Logger; markStopping: () => void; closed: () => Promise<void> },
) {
  let lastConnectionAt = 0;
  // Keep-alive sockets between requests: closed as soon as the listener is, so
  // a stop does not wait for clients to drop them (a socket accepted but not
  // yet read from is not one of them: it is in flight).
  const sockets = new Set<net.Socket>();
  const served = new WeakSet<net.Socket>();
  const busy = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    lastConnectionAt = Date.now();
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  server.on("request", (request, response) => {
    const socket = request.socket;
    served.add(socket);
    busy.add(socket);
    response.once("close", () => busy.delete(socket));
  });
  const closeKeptAlive = () => {
    for (const socket of sockets) if (served.has(socket) && !busy.has(socket)) socket.destroy();
  };
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    logger.info("stopping", { signal });
    const stopAt = Date.now();
    const drain = setInterval(() => {
      const now = Date.now();
      if (now - lastConnectionAt < QUIET_MS && now - stopAt < MAX_DRAIN_MS) return;
      clearInterval(drain);
      net.Server.prototype.close.call(server, () => {
        void closed().finally(() => process.exit(0));
      });
      closeKeptAlive();
    }, 50);
    // Keep-alive sockets left idle close after a grace period, and anything
    // still running after a bounded wait.
    setTimeout(() => server.closeIdleConnections(), MAX_DRAIN_MS + 1_000).unref();
    setTimeout(() => server.closeAllConnections(), MAX_DRAIN_MS + 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
