// The push settings of the environment (decision 060), checked once: the
// server refuses to start on a bad PUSH_ENDPOINT_HOSTS, as on any bad value.
import { generateKeyPairSync } from "node:crypto";
import {
  openPushStore,
  type PushStore,
  pushDatabaseUrl,
  type VapidKeys,
} from "#app/data/push-store.server.ts";
import type { Env } from "#app/env.server.ts";
import { type ExtraHost, parseEndpointHosts } from "./allow-list.ts";

export interface PushConfig {
  extraHosts: ExtraHost[];
  /** The VAPID subject, or null (sending is then refused with one line). */
  subject: string | null;
  /** PUBLIC_URL, or null (sending is then refused with one line). */
  publicUrl: string | null;
  maxSubscriptions: number;
  perAddress: number;
  perMinute: number;
  tickMs: number;
  concurrency: number;
  ttl: number;
}

type PushEnv = Pick<
  Env,
  | "PUBLIC_URL"
  | "VAPID_SUBJECT"
  | "PUSH_ENDPOINT_HOSTS"
  | "PUSH_MAX_SUBSCRIPTIONS"
  | "PUSH_SUBSCRIPTIONS_PER_ADDRESS"
  | "PUSH_REQUESTS_PER_MINUTE"
  | "PUSH_TICK_MS"
  | "PUSH_CONCURRENCY"
  | "PUSH_TTL"
>;

/** Throws with one line on a malformed PUSH_ENDPOINT_HOSTS. */
export function pushConfig(env: PushEnv): PushConfig {
  const publicUrl = env.PUBLIC_URL ?? null;
  const subject = env.VAPID_SUBJECT ?? (publicUrl?.startsWith("https:") ? new URL(publicUrl).origin : null);
  return {
    extraHosts: parseEndpointHosts(env.PUSH_ENDPOINT_HOSTS),
    subject,
    publicUrl,
    maxSubscriptions: env.PUSH_MAX_SUBSCRIPTIONS,
    perAddress: env.PUSH_SUBSCRIPTIONS_PER_ADDRESS,
    perMinute: env.PUSH_REQUESTS_PER_MINUTE,
    tickMs: env.PUSH_TICK_MS,
    concurrency: env.PUSH_CONCURRENCY,
    ttl: env.PUSH_TTL,
  };
}

/** A new VAPID key pair (P-256), base64url as the Push API and web-push take it. */
export function makeVapidKeys(): VapidKeys {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const pub = publicKey.export({ format: "jwk" });
  const priv = privateKey.export({ format: "jwk" });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(pub.x ?? "", "base64url"),
    Buffer.from(pub.y ?? "", "base64url"),
  ]);
  return { publicKey: point.toString("base64url"), privateKey: priv.d ?? "" };
}

/** The push store, opened on first use and kept; a failed open is tried again next time. */
export function pushStoreOnce(databaseUrl: string) {
  let opening: Promise<PushStore> | null = null;
  const get = (): Promise<PushStore> => {
    opening ??= openPushStore(pushDatabaseUrl(databaseUrl)).then(
      (store) => store as PushStore,
      (error) => {
        opening = null;
        throw error;
      },
    );
    return opening;
  };
  const close = async () => {
    const current = opening;
    opening = null;
    if (current) await (await current.catch(() => null))?.close();
  };
  return { get, close };
}
