// The `sukti` command run in this process, through cli/main.ts's `main` (what
// bin/sukti.js runs), its output captured: the CLI's behaviour without a
// process start per case. A few tests still spawn bin/sukti.js end to end.
import { main } from "#cli/main.ts";

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** Runs `sukti ...args` with `env` added to the environment; one at a time (it captures the process's output). */
export async function runSukti(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture = (into: string[]): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as Write;
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = capture(stdout);
  process.stderr.write = capture(stderr);
  let status: number;
  try {
    status = await main(args, { ...process.env, ...env });
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  return { status, stdout: stdout.join(""), stderr: stderr.join("") };
}
