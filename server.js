#!/usr/bin/env node
// Starts sukti: `npm start` serves the production build; NODE_ENV=development
// serves the sources through Vite.
if (process.env.NODE_ENV === "development") {
  const vite = await import("vite").then((m) =>
    m.createServer({ server: { middlewareMode: true }, appType: "custom" }),
  );
  const { startServer } = await vite.ssrLoadModule("./server/start.ts");
  await startServer({ vite });
} else {
  // React picks its production build from NODE_ENV when first loaded: set it
  // before the server build imports React (development builds are ~3x slower).
  process.env.NODE_ENV = "production";
  const cluster = await import("node:cluster");
  const { startServer, startPrimary } = await import("./build/server/index.js");
  // One worker per core by default (WEB_CONCURRENCY): server/cluster.ts.
  await (cluster.default.isPrimary ? startPrimary() : startServer());
}
