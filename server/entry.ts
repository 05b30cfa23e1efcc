// The production server build's entry (vite.config.ts): server.js starts the
// cluster's primary (./cluster.ts), which forks workers that each run
// startServer (./start.ts). Two modules, one direction: cluster imports start.
export { startPrimary } from "./cluster.ts";
export { startServer } from "./start.ts";
