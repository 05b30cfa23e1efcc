import type { NextFunction, Request, Response } from "express";
import type { Logger } from "./logger.ts";
import { styleHash } from "./script-hashes.ts";
import { contentSecurityPolicy } from "./security.ts";

const PLAIN_STYLE = `
body{margin:0;font-family:system-ui,sans-serif;background:#fffaf2;color:#2b1d14;display:grid;place-items:center;min-height:100vh}
main{max-width:32rem;padding:2rem;text-align:center}a{color:#9a3412}code{font-size:.9em}
`;
/** The plain page's CSP: no script, its one <style> by hash (made once). */
const PLAIN_CSP = contentSecurityPolicy([], [styleHash(PLAIN_STYLE)]);
/**
 * Retry-After of a 503 that is no visitor's doing (the database unavailable,
 * the server stopping): long enough for a restart or a failover, short
 * enough that a visitor's retry finds the site back.
 */
export const RETRY_AFTER_SECONDS = "10";

/** A page for answers that cannot go through React Router: 4xx/503 refusals and the last-resort 500. */
export function plainPage({
  status,
  title,
  message,
  requestId,
}: {
  status: number;
  title: string;
  message: string;
  requestId: string;
}): string {
  const escapeHtml = (text: string) =>
    text.replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
    );
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PLAIN_STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p>Reference: <code>${escapeHtml(requestId)}</code> · ${status}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
}

/** A small page with no React behind it, never cached. */
export function sendPlain(
  res: Response,
  status: number,
  title: string,
  message: string,
  headers: Record<string, string> = {},
) {
  // The API's answers are JSON, refusals included (api-gate.ts).
  if (res.locals.api) {
    res
      .status(status)
      .set({ "Cache-Control": "no-store", ...headers })
      .type("application/json");
    res.send(JSON.stringify({ error: message }));
    return;
  }
  res
    .status(status)
    .set("Cache-Control", "no-store")
    .set(headers)
    .set("Content-Security-Policy", PLAIN_CSP)
    .type("html")
    .send(plainPage({ status, title, message, requestId: res.locals.requestId as string }));
}

/** Last resort: never a stack trace to a visitor; the details go to the log. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status && status >= 400 && status < 500) {
      // Malformed requests (bad percent-encoding, oversized headers…).
      sendPlain(res, 400, "Bad request", "The address could not be read. Please check it and try again.");
      return;
    }
    logger.error("request failed", {
      requestId: res.locals.requestId,
      path: req.originalUrl.slice(0, 2000),
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    if (res.headersSent) return;
    sendPlain(
      res,
      500,
      "Something went wrong",
      "We could not show this page just now. Please try again in a moment.",
    );
  };
}
