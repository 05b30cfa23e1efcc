import { createHash } from "node:crypto";
import { reactRouter } from "@react-router/dev/vite";
import { build, defineConfig, type Plugin, type Rollup } from "vite";
import { moduleName, ROUTES } from "./app/route-table.ts";

/**
 * Resource routes (feeds, sitemaps, images, the API, redirects …) export only
 * a loader, so their client chunk is empty by design: React Router still lists
 * a client module for every route (remix-run/remix#9055, never fixed
 * upstream). Their "Generated an empty chunk" lines are dropped; any other
 * warning, or an empty chunk of a route with a screen, still prints. A chunk
 * is named by its module's file name, so a resource module named like a
 * screen (api/post.ts, api/not-found.ts) keeps its line: the screen's would
 * hide behind it.
 */
const SCREENS = new Set(
  ROUTES.filter((route) => route.kind === "page").map((route) => moduleName(route.module)),
);
export const RESOURCE_ROUTES = new Set(
  ROUTES.filter((route) => route.kind !== "page")
    .map((route) => moduleName(route.module))
    .filter((name) => !SCREENS.has(name)),
);

function onwarn(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void) {
  if (warning.code === "EMPTY_BUNDLE" && RESOURCE_ROUTES.has(warning.names?.[0] ?? "")) return;
  warn(warning);
}

/**
 * The service worker (app/service-worker/sw.ts, decision 049): once the
 * client is written, bundled on its own into build/client/sw.js, a classic
 * script with no imports. Its cache is named by the build: a hash of every
 * file name of the client build (hashed names, so any change of code
 * changes it).
 */
function serviceWorker(): Plugin {
  return {
    name: "sukti-service-worker",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const buildId = createHash("sha256")
        .update(Object.keys(bundle).sort().join("\n"))
        .digest("hex")
        .slice(0, 12);
      await build({
        configFile: false,
        logLevel: "warn",
        define: { __BUILD_ID__: JSON.stringify(buildId) },
        build: {
          outDir: options.dir,
          emptyOutDir: false,
          copyPublicDir: false,
          minify: true,
          lib: {
            entry: "app/service-worker/sw.ts",
            formats: ["iife"],
            name: "suktiWorker",
            fileName: () => "sw.js",
          },
        },
      });
    },
  };
}

export default defineConfig({
  // Both builds: the manifest (the client's stays in build/client/.vite for
  // `npm run size`; express.static ignores dot-folders, so it is never
  // served) and the warnings filter.
  build: { manifest: true, rollupOptions: { onwarn } },
  environments: {
    // The server build's entry is our Express app; it imports React Router's
    // virtual server build, so one bundle holds the whole server.
    ssr: { build: { rollupOptions: { input: "./server/entry.ts", onwarn } } },
  },
  plugins: [reactRouter(), serviceWorker()],
});
