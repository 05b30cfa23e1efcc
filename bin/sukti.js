#!/usr/bin/env node
// `npx sukti …`: runs the TypeScript CLI in cli/ through tsx, so the command
// and the site share one source (app/content, app/data) with no build step.
import { setPriority } from "node:os";
import { register } from "tsx/esm/api";

// Content writes are batch work: on a machine that also serves the site, its
// visitors' pages come first (decision 076). Set before anything else runs, so
// the compile below and every thread the command starts inherit it.
if (["import", "sync"].includes(process.argv[2] ?? "") && process.env.SUKTI_IMPORT_NICE !== "0") {
  try {
    setPriority(Number(process.env.SUKTI_IMPORT_NICE ?? 10));
  } catch {
    // Not allowed here: the command runs at the shell's priority.
  }
}

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
