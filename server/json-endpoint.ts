// A small JSON write endpoint of the public site (the stats beacon of
// decision 056; the push subscriptions of decision 060 use it too):
// one method, JSON only (415 otherwise), a bounded body (413 past it), strict
// validation by a zod schema (400 with a one-line reason), rate-limited per
// client (429 with Retry-After). Every refusal is one line of plain text, no
// cookie, no stack trace; the handler answers what it answers (204 here).
import type { Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import { clientKey } from "./search-limits.ts";

export interface JsonEndpointOptions<T> {
  method: "POST" | "PUT" | "DELETE";
  maxBytes: number;
  schema: z.ZodType<T>;
  /** Requests per client address per minute (kept in memory only, for this count). */
  perMinute: number;
  handle: (body: T, req: Request, res: Response) => void | Promise<void>;
}

/** A refusal: its status and one line saying why. */
export function refuse(res: Response, status: number, reason: string, headers: Record<string, string> = {}) {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", ...headers })
    .type("text/plain")
    .send(`${reason}\n`);
}

/** The body as text, or null once it passes `maxBytes` (the rest is not read). */
function readBody(req: Request, maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

/** The first problem zod found, as "field: message". */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid body";
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}

export function jsonEndpoint<T>({
  method,
  maxBytes,
  schema,
  perMinute,
  handle,
}: JsonEndpointOptions<T>): RequestHandler {
  // Per client address, this minute's requests: in memory, cleared each minute, never written anywhere.
  let minute = 0;
  let seen = new Map<string, number>();
  return async (req, res, next) => {
    try {
      if (req.method !== method) return refuse(res, 405, `use ${method} with a JSON body`, { Allow: method });
      const now = Math.floor(Date.now() / 60_000);
      if (now !== minute || seen.size > 50_000) {
        minute = now;
        seen = new Map();
      }
      const key = clientKey(req.ip);
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      if (count > perMinute)
        return refuse(res, 429, "too many requests; try again in a minute", { "Retry-After": "60" });
      const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
      if (type !== "application/json") return refuse(res, 415, "the body must be application/json");
      const length = Number(req.headers["content-length"] ?? 0);
      if (length > maxBytes)
        return refuse(res, 413, `the body must be at most ${maxBytes} bytes`, { Connection: "close" });
      const text = await readBody(req, maxBytes);
      if (text === null)
        return refuse(res, 413, `the body must be at most ${maxBytes} bytes`, { Connection: "close" });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return refuse(res, 400, "the body is not valid JSON");
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) return refuse(res, 400, `invalid body: ${firstIssue(parsed.error)}`);
      await handle(parsed.data, req, res);
    } catch (error) {
      next(error);
    }
  };
}
