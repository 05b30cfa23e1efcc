import { connect } from "node:net";

export interface RawResponse {
  status: number;
  head: string;
  body: Buffer;
}

/**
 * Sends bytes exactly as given (paths no client library would send) and reads
 * the whole answer; the connection closes after one response.
 */
export function rawRequest(port: number, request: Buffer | string, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("timed out"));
    }, timeoutMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const head = all.subarray(0, split === -1 ? all.length : split).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: split === -1 ? Buffer.alloc(0) : all.subarray(split + 4) });
    });
    socket.write(request);
  });
}
