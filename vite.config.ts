import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app; it imports React Router's
  // virtual server build, so one bundle holds the whole server.
  // The client manifest stays in build/client/.vite for `npm run size`
  // (express.static ignores dot-folders, so it is never served).
  build: isSsrBuild ? { rollupOptions: { input: "./server/start.ts" } } : { manifest: true },
  plugins: [reactRouter()],
}));
