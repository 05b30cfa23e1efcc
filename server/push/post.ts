// The push request itself (decision 060): our own node:http/https client,
// not web-push's sendNotification, so the connection goes to the address the
// allow-list checked (the lookup is answered with it: no second resolution,
// no DNS rebinding), a redirect is never followed, and every request has a
// deadline. TLS still verifies the push service's certificate for its name.
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { ResolvedEndpoint } from "./allow-list.ts";

export interface PushResponse {
  status: number;
  /** Retry-After in seconds (a number or an HTTP date), or null. */
  retryAfter: number | null;
}

/** A request that failed: `sent` says whether its body may have reached the push service. */
export class PostError extends Error {
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/** Longest answer body read (and thrown away). */
const MAX_ANSWER = 64 * 1024;

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function postToEndpoint(
  target: ResolvedEndpoint,
  headers: Record<string, string | number>,
  body: Buffer,
  timeoutMs: number,
): Promise<PushResponse> {
  const { url, address, family } = target;
  // Whatever the name, the socket goes to the address checked.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === "https:" ? https : http;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    let written = false;
    const request = client.request(
      {
        method: "POST",
        host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, "Content-Length": body.length },
        lookup,
        agent: false,
        timeout: timeoutMs,
        ...(url.protocol === "https:" && isIP(host) === 0 ? { servername: host } : {}),
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER) response.destroy();
        });
        const done = () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: parseRetryAfter(response.headers["retry-after"]),
          });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error("the push service did not answer in time")),
      timeoutMs,
    );
    request.on("close", () => clearTimeout(deadline));
    request.on("timeout", () => request.destroy(new Error("the push service did not answer in time")));
    request.on("finish", () => {
      written = true;
    });
    request.on("error", (error) => reject(new PostError(error.message, written)));
    request.end(body);
  });
}
