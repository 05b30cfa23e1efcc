// Sends a rendered (or cached) page: its headers, a CSP with this response's
// nonce, an ETag and a 304 when the browser has the same body.
import type { Request, Response } from "express";
import { joinParts, type RenderedPage } from "./page-cache.ts";
import { contentSecurityPolicy } from "./security.ts";

export function sendPage(req: Request, res: Response, page: RenderedPage, nonce: string, requestId: string) {
  for (const [name, value] of page.headers) res.setHeader(name, value);
  const isHtml = (res.getHeader("content-type") ?? "").toString().includes("text/html");
  if (isHtml) res.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  if (!res.getHeader("cache-control")) {
    res.set("Cache-Control", page.status === 200 ? "public, max-age=0, must-revalidate" : "no-cache");
  }
  if (page.status === 200 && !/no-store/.test(String(res.getHeader("cache-control")))) {
    res.set("ETag", page.etag);
    if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(page.etag)) {
      // The browser keeps the body it has, whose scripts carry the nonce of the
      // response that sent it; browsers update stored headers from a 304, so a
      // CSP here (with a new nonce) would block every script of that page.
      res.removeHeader("Content-Security-Policy");
      res.status(304).end();
      return;
    }
  }
  res.status(page.status).send(joinParts(page.parts, { nonce, requestId }));
}
