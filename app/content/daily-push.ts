// The daily quote by Web Push, the browser's side (decision 061):
// what the "Daily quote" control (app/components/daily-push-panel.tsx, loaded
// on click) and the service worker (app/service-worker/push.ts) share. The
// server's side is /push/public-key and /push/subscriptions (decision 060).
import { type PushChoice, readChoice } from "#app/content/daily-push-choice.ts";
import { isLanguage, type Language } from "#app/content/languages.ts";

export {
  CHOICE_KEY,
  DEFAULT_HOUR,
  hourLabel,
  type PushChoice,
  readChoice,
} from "#app/content/daily-push-choice.ts";

/**
 * The same choice for the service worker, which has no localStorage: one
 * entry in a cache of its own (the worker deletes only `sukti-…` caches of
 * older builds, so this name has no dash).
 */
export const CHOICE_CACHE = "sukti:push";
export const CHOICE_URL = "/__sw/push-choice.json";

/** The reader's time zone, as the browser says it ("UTC" when it says none). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The server's VAPID public key (an uncompressed P-256 point, 65 bytes), as bytes. */
export async function fetchPublicKey(): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetch("/push/public-key", { headers: { Accept: "application/json, text/plain" } });
  if (!response.ok) throw new Error(`public key: ${response.status}`);
  const text = (await response.text()).trim();
  let key = text;
  if (text.startsWith("{")) {
    const json = JSON.parse(text) as Record<string, unknown>;
    key = String(json.publicKey ?? json.key ?? "");
  } else if (text.startsWith('"')) key = String(JSON.parse(text));
  const bytes = base64UrlToBytes(key);
  if (bytes.length !== 65 || bytes[0] !== 4) throw new Error("public key: not an uncompressed P-256 point");
  return bytes;
}

export function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** POST /push/subscriptions: 201 stored, 200 updated; anything else is thrown. */
export async function sendSubscription(subscription: PushSubscription, choice: PushChoice): Promise<number> {
  const json = subscription.toJSON();
  const response = await fetch("/push/subscriptions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      subscription: {
        endpoint: json.endpoint ?? subscription.endpoint,
        keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth },
      },
      language: choice.language,
      hour: choice.hour,
      timeZone: choice.timeZone,
    }),
  });
  if (response.status !== 200 && response.status !== 201) throw new Error(`subscribe: ${response.status}`);
  return response.status;
}

/** DELETE /push/subscriptions: 204 removed; a 404 (already gone) is as good. */
export async function deleteSubscription(endpoint: string): Promise<void> {
  const response = await fetch("/push/subscriptions", {
    method: "DELETE",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ endpoint }),
  });
  if (!response.ok && response.status !== 404) throw new Error(`unsubscribe: ${response.status}`);
}

/** The worker's copy of the choice (null: none, or no Cache Storage). */
export async function workerChoice(): Promise<PushChoice | null> {
  try {
    const response = await (await caches.open(CHOICE_CACHE)).match(CHOICE_URL);
    return response ? readChoice(await response.json()) : null;
  } catch {
    return null;
  }
}

export async function keepWorkerChoice(choice: PushChoice | null): Promise<void> {
  try {
    if (!choice) {
      await caches.delete(CHOICE_CACHE);
      return;
    }
    await (await caches.open(CHOICE_CACHE)).put(
      CHOICE_URL,
      new Response(JSON.stringify(choice), { headers: { "Content-Type": "application/json" } }),
    );
  } catch {
    // No Cache Storage: a changed subscription is then not renewed by the worker.
  }
}

// --- what a push shows ---------------------------------------------------------

export interface Notice {
  title: string;
  body: string;
  /** Always an absolute address on the worker's own origin. */
  url: string;
  lang: string;
  tag: string;
}

const LANG_OF: Record<Language, string> = { english: "en", hindi: "hi", marathi: "mr" };

/**
 * An address on this site, or the site's home: a notification never opens
 * another origin, whatever its payload says.
 */
export function sameOriginUrl(value: unknown, origin: string): string {
  if (typeof value === "string" && value) {
    try {
      const url = new URL(value, origin);
      if (url.origin === origin && (url.protocol === "https:" || url.protocol === "http:")) return url.href;
    } catch {
      // not an address
    }
  }
  return new URL("/", origin).href;
}

/**
 * The notification a push payload ({title, body, url, lang, tag}) asks for.
 * With `userVisibleOnly` every push must show one, so a payload that cannot be
 * read still shows the quote of the day's name and opens the home.
 */
export function noticeOf(payload: unknown, origin: string): Notice {
  const data = (payload && typeof payload === "object" ? payload : {}) as Record<string, unknown>;
  const text = (value: unknown, max: number) => (typeof value === "string" ? value.trim().slice(0, max) : "");
  const rawLang = text(data.lang, 35) || text(data.language, 35);
  const lang = isLanguage(rawLang)
    ? LANG_OF[rawLang]
    : /^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(rawLang)
      ? rawLang
      : "";
  return {
    title:
      text(data.title, 200) ||
      (lang === "hi" ? "आज की सूक्ति" : lang === "mr" ? "आजचा सुविचार" : "Quote of the day"),
    body: text(data.body, 500),
    url: sameOriginUrl(data.url, origin),
    lang,
    tag: text(data.tag, 100) || "daily-quote",
  };
}
