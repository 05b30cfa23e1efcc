// The push endpoints of the public site (decision 060):
//   GET    /push/public-key     base64url uncompressed P-256 (text/plain; {"publicKey"} when JSON is asked)
//   POST   /push/subscriptions  {"subscription": {"endpoint", "keys": {"p256dh", "auth"}},
//                                "language", "hour", "timeZone"}  → 201 new, 200 updated
//   DELETE /push/subscriptions  {"endpoint"}                     → 204
// The writes go through json-endpoint.ts (JSON only, ≤ 4 KB, strict, one-line
// 400s, per-client rate limit). An endpoint that is not a real push service's
// (allow-list.ts) is refused with 400 and never contacted; new subscriptions
// are capped per client address a day (in memory: the address is never
// stored) and in total.
import { ECDH } from "node:crypto";
import express, { type Request, type Router } from "express";
import { z } from "zod";
import { LANGUAGES } from "#app/content/languages.ts";
import type { PushStore } from "#app/data/push-store.server.ts";
import { jsonEndpoint, refuse } from "../json-endpoint.ts";
import type { Logger } from "../logger.ts";
import { clientKey } from "../search-limits.ts";
import { LookupError, MAX_ENDPOINT_LENGTH, resolveEndpoint } from "./allow-list.ts";
import { makeVapidKeys, type PushConfig } from "./config.ts";

export const PUSH_MAX_BYTES = 4096;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function base64urlBytes(length: number, what: string) {
  return z
    .string()
    .max(200)
    .regex(BASE64URL, `${what} must be base64url`)
    .refine((value) => Buffer.from(value, "base64url").length === length, `${what} must be ${length} bytes`);
}

/** Whether `name` is an IANA zone name Intl knows (no UTC offsets like "+05:30"). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const SubscribeSchema = z.strictObject({
  subscription: z.strictObject({
    endpoint: z.string().min(1).max(MAX_ENDPOINT_LENGTH),
    // PushSubscription.toJSON() says it (null in every browser today); never stored.
    expirationTime: z.number().nullable().optional(),
    keys: z.strictObject({
      p256dh: base64urlBytes(65, "keys.p256dh").refine((value) => {
        try {
          // An uncompressed point on P-256 (0x04, x, y), or the message could never be read.
          ECDH.convertKey(
            Buffer.from(value, "base64url"),
            "prime256v1",
            undefined,
            undefined,
            "uncompressed",
          );
          return Buffer.from(value, "base64url")[0] === 4;
        } catch {
          return false;
        }
      }, "keys.p256dh must be an uncompressed P-256 point"),
      auth: base64urlBytes(16, "keys.auth"),
    }),
  }),
  language: z.enum(LANGUAGES),
  hour: z.number().int().min(0).max(23),
  timeZone: z.string().max(64).refine(isTimeZone, "timeZone must be an IANA time zone name"),
});

const UnsubscribeSchema = z.strictObject({
  endpoint: z.string().min(1).max(MAX_ENDPOINT_LENGTH),
});

/** A page of another site posting here (its Origin says so): refused. */
function fromAnotherSite(req: Request): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || origin === "null") return origin === "null";
  try {
    return new URL(origin).host.toLowerCase() !== String(req.headers.host ?? "").toLowerCase();
  } catch {
    return true;
  }
}

export interface PushEndpointsOptions {
  store: () => Promise<PushStore>;
  config: PushConfig;
  logger: Logger;
  now?: () => number;
}

export function pushEndpoints({ store, config, logger, now = Date.now }: PushEndpointsOptions): Router {
  const router = express.Router();
  let publicKey: string | null = null;

  router.get("/push/public-key", async (req, res, next) => {
    try {
      publicKey ??= (await (await store()).keys(makeVapidKeys)).publicKey;
      // The key itself as the body (text/plain), or {"publicKey": …} to a client that asks for JSON.
      res.set({ "Cache-Control": "public, max-age=3600", Vary: "Accept" });
      if (req.accepts(["text/plain", "application/json"]) === "application/json") res.json({ publicKey });
      else res.type("text/plain").send(publicKey);
    } catch (error) {
      next(error);
    }
  });

  // New subscriptions per client address today: in memory only, never written.
  let day = "";
  let made = new Map<string, number>();
  const madeToday = (key: string) => {
    const today = new Date(now()).toISOString().slice(0, 10);
    if (today !== day || made.size > 100_000) {
      day = today;
      made = new Map();
    }
    return made.get(key) ?? 0;
  };

  const subscribe = jsonEndpoint({
    method: "POST",
    maxBytes: PUSH_MAX_BYTES,
    schema: SubscribeSchema,
    perMinute: config.perMinute,
    handle: async (body, req, res) => {
      if (fromAnotherSite(req)) return refuse(res, 403, "subscriptions must come from this site's pages");
      const key = clientKey(req.ip);
      const endpoint = body.subscription.endpoint;
      let checked: Awaited<ReturnType<typeof resolveEndpoint>>;
      try {
        checked = await resolveEndpoint(endpoint, config.extraHosts);
      } catch (error) {
        if (!(error instanceof LookupError)) throw error;
        if (error.temporary)
          return refuse(res, 503, "the endpoint cannot be checked just now; try again later", {
            "Retry-After": "60",
          });
        return refuse(res, 400, "the endpoint's host cannot be resolved");
      }
      if (!checked.ok) return refuse(res, 400, checked.reason);
      const timeZone = body.timeZone;
      const result = await (await store()).subscribe(
        {
          endpoint,
          p256dh: body.subscription.keys.p256dh.replace(/=+$/, ""),
          auth: body.subscription.keys.auth.replace(/=+$/, ""),
          language: body.language,
          hour: body.hour,
          timeZone,
        },
        new Date(now()).toISOString().slice(0, 10),
        config.maxSubscriptions,
        madeToday(key) < config.perAddress,
      );
      if (result === "capped")
        return refuse(res, 429, "too many subscriptions from this address today", { "Retry-After": "3600" });
      if (result === "full") {
        logger.warn("push subscriptions are full", { max: config.maxSubscriptions });
        return refuse(res, 503, "no more subscriptions can be taken just now", { "Retry-After": "86400" });
      }
      if (result === "created") made.set(key, madeToday(key) + 1);
      res
        .status(result === "created" ? 201 : 200)
        .set("Cache-Control", "no-store")
        .json({ language: body.language, hour: body.hour, timeZone });
    },
  });

  const unsubscribe = jsonEndpoint({
    method: "DELETE",
    maxBytes: PUSH_MAX_BYTES,
    schema: UnsubscribeSchema,
    perMinute: config.perMinute,
    handle: async (body, req, res) => {
      if (fromAnotherSite(req)) return refuse(res, 403, "subscriptions must come from this site's pages");
      await (await store()).unsubscribe(body.endpoint);
      res.status(204).set("Cache-Control", "no-store").end();
    },
  });

  router.all("/push/subscriptions", (req, res, next) => {
    if (req.method === "POST") return subscribe(req, res, next);
    if (req.method === "DELETE") return unsubscribe(req, res, next);
    refuse(res, 405, "use POST or DELETE with a JSON body", { Allow: "POST, DELETE" });
  });
  return router;
}
