import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's flags: route module splitting (no route's JavaScript
  // grew: `npm run size`) and the Vite Environment API (vite.config.ts names
  // our server entry for the ssr environment) are adopted. Not yet:
  // v8_passThroughRequests and v8_trailingSlashAwareDataRequests change the
  // data requests our server answers (a client-side move to a search's next
  // page stopped working when tried); each means a change on our side first.
  future: { v8_middleware: true, v8_splitRouteModules: true, v8_viteEnvironmentApi: true },
} satisfies Config;
