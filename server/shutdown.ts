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
  // Each socket's state is made once, when it connects; a request only counts on it.
  const sockets = new Map<net.Socket, { served: boolean; busy: number }>();
  server.on("connection", (socket: net.Socket) => {
    lastConnectionAt = Date.now();
    sockets.set(socket, { served: false, busy: 0 });
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (request, response) => {
    const state = sockets.get(request.socket);
    if (!state) return;
    state.served = true;
    state.busy++;
    response.once("close", () => {
      state.busy--;
    });
  });
  const closeKeptAlive = () => {
    for (const [socket, { served, busy }] of sockets) if (served && busy === 0) socket.destroy();
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
