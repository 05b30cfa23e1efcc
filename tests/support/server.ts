import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const TEST_SEED = 20261122;

export interface RunningServer {
  url: string;
  dbPath: string;
  dir: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built production server (`node server.js`) on a loopback port with
 * its own database file, and waits until /healthz answers. The benchmark
 * scripts use it too (with `npm start`'s Node flags and no fixed seed).
 */
export async function startServer(
  options: { dbPath?: string; env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<RunningServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-test-"));
  const dbPath = options.dbPath ?? path.join(dir, "sukti.db");
  const port = await freePort();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "server.js"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: `file:${dbPath}`,
      LOG_LEVEL: "warn",
      SUKTI_RANDOM_SEED: String(TEST_SEED),
      SHARE_IMAGE_DIR: path.join(dir, "share-images"),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    dbPath,
    dir,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
