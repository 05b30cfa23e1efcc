// Worker-thread entry for cli/prepare.ts: workers start without the main
// thread's TypeScript loader, so register it, then run the TypeScript body.
import { register } from "tsx/esm/api";

register();
await import("./prepare-worker.ts");
