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
export const MAX_CLIENTS = 50_000;

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

/**
 * A token bucket per client: `perMinute` tokens, refilled evenly. take()
 * spends one and answers 0, or answers the whole seconds until one is back.
 */
export class RateBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #perMinute: number;
  readonly #perMs: number;
  readonly #now: () => number;

  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#perMs = perMinute / 60_000;
    this.#now = now;
  }

  take(client: string): number {
    const at = this.#now();
    const bucket = this.#buckets.get(client);
    const tokens = bucket ? this.#refilled(bucket, at) : this.#perMinute;
    if (tokens < 1) {
      this.#buckets.set(client, { tokens, at });
      return Math.max(1, Math.ceil((1 - tokens) / this.#perMs / 1000));
    }
    if (!bucket && this.#buckets.size >= MAX_CLIENTS) {
      for (const [key, kept] of this.#buckets) {
        if (this.#refilled(kept, at) >= this.#perMinute) this.#buckets.delete(key);
      }
      // Still full (a flood from many addresses): start afresh rather than scan for every newcomer.
      if (this.#buckets.size >= MAX_CLIENTS / 2) this.#buckets.clear();
    }
    this.#buckets.set(client, { tokens: tokens - 1, at });
    return 0;
  }

  #refilled(bucket: { tokens: number; at: number }, at: number): number {
    return Math.min(this.#perMinute, bucket.tokens + Math.max(0, at - bucket.at) * this.#perMs);
  }

  get size() {
    return this.#buckets.size;
  }
}

export function apiGate({ perMinute, now = Date.now }: ApiGateOptions): RequestHandler {
  const buckets = perMinute > 0 ? new RateBuckets(perMinute, now) : null;
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
    if (buckets) {
      const wait = buckets.take(clientKey(req.ip));
      if (wait > 0) {
        sendApiError(res, 429, `too many requests; try again in ${wait} s`, { "Retry-After": String(wait) });
        return;
      }
    }
    next();
  };
}
