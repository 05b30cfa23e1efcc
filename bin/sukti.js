#!/usr/bin/env node
// `npx sukti …`: runs the TypeScript CLI in cli/ through tsx, so the command
// and the site share one source (app/content, app/data) with no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
