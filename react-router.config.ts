import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router v8's other flags are not adopted yet: v8_viteEnvironmentApi's
  // server build ignores our entry (server/start.ts), v8_passThroughRequests
  // and v8_trailingSlashAwareDataRequests change the data requests our server
  // answers (a client-side move to a search's next page stopped working), and
  // v8_splitRouteModules made the home page's own JavaScript grow. Each means
  // a change on our side first; the build says so in four lines.
  future: { v8_middleware: true },
} satisfies Config;
