import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Rollup } from "vite";

/**
 * Resource routes (feeds, sitemaps, images …) export only a loader, so their
 * client chunk is empty by design: React Router still lists a client module
 * for every route (remix-run/remix#9055, never fixed upstream). Their
 * "Generated an empty chunk" lines are dropped; any other warning, or an
 * empty chunk of a route with a screen, still prints.
 */
const RESOURCE_ROUTES = new Set([
  "feed",
  "person-feed",
  "image-variant",
  "manifest",
  "robots",
  "share-image",
  "shortcut",
  "sitemap-index",
  "sitemap",
]);

function onwarn(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void) {
  if (warning.code === "EMPTY_BUNDLE" && RESOURCE_ROUTES.has(warning.names?.[0] ?? "")) return;
  warn(warning);
}

export default defineConfig({
  // Both builds: the manifest (the client's stays in build/client/.vite for
  // `npm run size`; express.static ignores dot-folders, so it is never
  // served) and the warnings filter.
  build: { manifest: true, rollupOptions: { onwarn } },
  environments: {
    // The server build's entry is our Express app; it imports React Router's
    // virtual server build, so one bundle holds the whole server.
    ssr: { build: { rollupOptions: { input: "./server/start.ts", onwarn } } },
  },
  plugins: [reactRouter()],
});
