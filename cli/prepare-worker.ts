import { parentPort, workerData } from "node:worker_threads";
import { UserError } from "#cli/errors.ts";
import {
  BATCH_SIZE,
  BATCHES_AHEAD,
  type Prepared,
  type PrepareJob,
  prepareInThread,
  type WorkerMessage,
} from "#cli/prepare.ts";

const port = parentPort;
if (port === null)
  throw new Error("cli/prepare-worker.ts runs only in a worker thread (cli/prepare.ts starts it)");
const job = workerData as PrepareJob;
let credits = BATCHES_AHEAD;
let wake: (() => void) | null = null;
port.on("message", (message: { credit: number }) => {
  credits += message.credit;
  wake?.();
});

const send = async (message: WorkerMessage) => {
  while (credits <= 0) {
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = null;
  }
  credits--;
  port.postMessage(message);
};

const counter = { bytes: 0 };
try {
  let batch: Prepared[] = [];
  for await (const prepared of prepareInThread(job, counter)) {
    batch.push(prepared);
    if (batch.length >= BATCH_SIZE) {
      await send({ batch, bytes: counter.bytes });
      batch = [];
    }
  }
  if (batch.length > 0) await send({ batch, bytes: counter.bytes });
  port.postMessage({ done: true, bytes: counter.bytes } satisfies WorkerMessage);
} catch (error) {
  port.postMessage({
    error: (error as Error).message,
    user: error instanceof UserError,
  } satisfies WorkerMessage);
}
port.close();
