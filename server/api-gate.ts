// The public API's door (/api/, decision 062), before the method filter and
// the page cache: what React Router's resource routes cannot answer. A CORS
// preflight (OPTIONS) gets 204 with the methods and headers a reader may send;
// any method but GET, HEAD and OPTIONS gets 405; each client (an IPv4
// address, an IPv6 /64: clientKey) has `perMinute` requests a minute, a
// bucket refilled evenly, and past it 429 with the seconds until the next one
// in Retry-After. Every answer here is JSON with CORS for any origin, and it
// marks the response as the API's, so the server's own refusals further on
// (421, 503, 500: pages.ts) are JSON too. The routes (app/routes/api/) answer
// everything else.
import type { RequestHandler } from "express";
import { API_CORS_HEADERS } from "#app/api/respond.server.ts";
import { clientKey } from "./search-limits.ts";

/** API_RATE_LIMIT's default: a page's widget asks once; a script may ask twice a second. */
export const DEFAULT_API_RATE_LIMIT = 120;

/** Clients remembered at most; past it, those whose bucket is full again are forgotten. */
const MAX_CLIENTS = 50_000;

export interface ApiGateOptions {
  /** Requests per client per minute (API_RATE_LIMIT); 0: no limit. */
  perMinute: number;
  now?: () => number;
}

/** One line of JSON: {"error": message}. */
export function sendApiError(
  res: Parameters<RequestHandler>[1],
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res
    .status(status)
    .set({ "Cache-Control": "no-store", ...API_CORS_HEADERS, ...headers })
    .type("application/json")
    .send(JSON.stringify({ error: message }));
}

export function apiGate({ perMinute, now = Date.now }: ApiGateOptions): RequestHandler {
  // Per client: tokens left and when they were counted. In memory only.
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  const take = (client: string): number => {
    const at = now();
    const bucket = buckets.get(client);
    const tokens = bucket ? Math.min(perMinute, bucket.tokens + (at - bucket.at) * perMs) : perMinute;
    if (tokens >= 1) {
      if (!bucket && buckets.size >= MAX_CLIENTS) {
        for (const [key, kept] of buckets) {
          if (kept.tokens + (at - kept.at) * perMs >= perMinute) buckets.delete(key);
        }
      }
      buckets.set(client, { tokens: tokens - 1, at });
      return 0;
    }
    buckets.set(client, { tokens, at });
    return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  };
  return (req, res, next) => {
    res.locals.api = true;
    res.set(API_CORS_HEADERS);
    if (req.method === "OPTIONS") {
      res
        .status(204)
        .set({
          "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
          "Access-Control-Allow-Headers": "If-None-Match, Cache-Control",
          "Access-Control-Max-Age": "86400",
          "Cache-Control": "public, max-age=86400",
        })
        .end();
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendApiError(res, 405, "the API is read-only: use GET", { Allow: "GET, HEAD, OPTIONS" });
      return;
    }
    if (perMinute > 0) {
      const wait = take(clientKey(req.ip));
      if (wait > 0) {
        sendApiError(res, 429, `too many requests; try again in ${wait} s`, { "Retry-After": String(wait) });
        return;
      }
    }
    next();
  };
}
