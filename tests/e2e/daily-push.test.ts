// The daily quote by notification, the reader's side (decision 061),
// in Chromium against the built server's real /push endpoints. The
// browser's push service is out of reach here: only PushManager's subscribe,
// getSubscription and permissionState and Notification's permission are
// stubbed in the page (an init script), handing out a subscription whose
// endpoint is on loopback (allowed by PUSH_ENDPOINT_HOSTS) with real P-256
// keys. The worker's push handler gets a real push event through the
// DevTools protocol (ServiceWorker.deliverPushMessage).
import { createECDH, randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newTab } from "#tests/support/browser.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { freePort, type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
let browser: Browser;
let pushPort: number;

beforeAll(async () => {
  pushPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({
      env: {
        PUSH_ENDPOINT_HOSTS: `127.0.0.1:${pushPort}`,
        VAPID_SUBJECT: "mailto:push-test@example.com",
        // Every subscription here comes from 127.0.0.1: the caps are not what this file tests.
        PUSH_SUBSCRIPTIONS_PER_ADDRESS: "1000",
        PUSH_REQUESTS_PER_MINUTE: "1000",
      },
    }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** A subscription as a push service would hand it out: a loopback endpoint, real keys. */
function fakeSubscription() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint: `http://127.0.0.1:${pushPort}/push/${base64url(randomBytes(12))}`,
    keys: { p256dh: base64url(ecdh.getPublicKey()), auth: base64url(randomBytes(16)) },
  };
}

/**
 * The stubbed browser side. State lives in localStorage (the page's origin)
 * under `__stub-…` keys, so it outlasts a reload: the permission the reader
 * gave (`__stub-answer` is what requestPermission answers), how often it was
 * asked, and the subscription handed out.
 */
function stubScript(subscription: ReturnType<typeof fakeSubscription>, answer: "granted" | "denied") {
  return `(() => {
  const SUB = ${JSON.stringify(subscription)};
  const ANSWER = ${JSON.stringify(answer)};
  const get = (key) => localStorage.getItem("__stub-" + key);
  const set = (key, value) => localStorage.setItem("__stub-" + key, value);
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - text.length % 4) % 4)), (c) => c.charCodeAt(0));
  const b64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const made = (key) => ({
    endpoint: SUB.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: bytes(key).buffer },
    getKey: (name) => bytes(SUB.keys[name]).buffer,
    toJSON: () => ({ endpoint: SUB.endpoint, expirationTime: null, keys: { ...SUB.keys } }),
    unsubscribe: async () => {
      localStorage.removeItem("__stub-subscription");
      set("unsubscribed", String(Number(get("unsubscribed") ?? 0) + 1));
      return true;
    },
  });
  PushManager.prototype.subscribe = async function (options) {
    if ((get("permission") ?? "default") !== "granted") throw new DOMException("not allowed", "NotAllowedError");
    if (!options || options.userVisibleOnly !== true) throw new DOMException("userVisibleOnly", "NotSupportedError");
    const key = options.applicationServerKey;
    const buffer = key instanceof ArrayBuffer ? key : key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength);
    set("subscription", b64(buffer));
    return made(b64(buffer));
  };
  PushManager.prototype.getSubscription = async function () {
    const key = get("subscription");
    return key ? made(key) : null;
  };
  PushManager.prototype.permissionState = async function () {
    const permission = get("permission") ?? "default";
    return permission === "default" ? "prompt" : permission;
  };
  Object.defineProperty(Notification, "permission", { configurable: true, get: () => get("permission") ?? "default" });
  Notification.requestPermission = async function () {
    set("asked", String(Number(get("asked") ?? 0) + 1));
    set("permission", ANSWER);
    return ANSWER;
  };
})();`;
}

function stubState(page: Page) {
  return page.evaluate(() => ({
    asked: Number(localStorage.getItem("__stub-asked") ?? 0),
    subscribed: localStorage.getItem("__stub-subscription") !== null,
    unsubscribed: Number(localStorage.getItem("__stub-unsubscribed") ?? 0),
    choice: localStorage.getItem("sukti-daily-push"),
  }));
}

/** What the server answers when this subscription is posted again: 200 stored, 201 new. */
async function postAgain(subscription: ReturnType<typeof fakeSubscription>, language: string, hour: number) {
  const response = await fetch(`${server.url}/push/subscriptions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ subscription, language, hour, timeZone: "UTC" }),
  });
  return response.status;
}

async function deleteIt(subscription: ReturnType<typeof fakeSubscription>) {
  const response = await fetch(`${server.url}/push/subscriptions`, {
    method: "DELETE",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ endpoint: subscription.endpoint }),
  });
  return response.status;
}

async function newContext(): Promise<BrowserContext> {
  // The control registers the site's worker (decision 049): it must be allowed.
  return browser.newContext({ serviceWorkers: "allow", timezoneId: "Europe/Paris" });
}

const violations = (errors: string[]) => errors.filter((error) => error.includes("securitypolicyviolation"));

test("nothing is asked or sent before the reader clicks Subscribe; without JavaScript the control is a harmless line", async () => {
  const context = await newContext();
  try {
    const subscription = fakeSubscription();
    await context.addInitScript(stubScript(subscription, "granted"));
    const { page, errors } = await newTab(context);
    const pushRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/push/")) pushRequests.push(request.url());
    });
    await page.goto(`${server.url}/hindi/home`);
    await page.waitForSelector("html[data-hydrated]");
    const control = page.locator("details.daily-push");
    expect(await control.getAttribute("lang")).toBe("hi");
    expect(await control.locator("summary").textContent()).toBe("रोज़ की सूक्ति सूचना से");
    // Opening the control loads its panel, and still asks nothing.
    await control.locator("summary").click();
    await page.locator('.daily-push-panel[data-state="off"]').waitFor();
    await page.waitForLoadState("networkidle");
    expect(await stubState(page)).toMatchObject({ asked: 0, subscribed: false });
    expect(pushRequests).toEqual([]);
    expect(violations(errors)).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
  // A browser without Web Push says so in one line.
  const old = await newContext();
  try {
    await old.addInitScript("delete window.PushManager;");
    const { page, errors } = await newTab(old);
    await page.goto(`${server.url}/marathi/home`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("details.daily-push summary").click();
    await page.locator('.daily-push-panel[data-state="unsupported"]').waitFor();
    expect(await page.locator(".daily-push-panel").textContent()).toBe(
      "हा ब्राउझर वेबसाइट्सच्या सूचना दाखवू शकत नाही.",
    );
    expect(errors).toEqual([]);
  } finally {
    await old.close();
  }
  // Without JavaScript: a closed disclosure that says it needs JavaScript, nothing else.
  const bare = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await bare.newPage();
    await page.goto(`${server.url}/english/home`);
    await page.locator("details.daily-push summary").click();
    expect(await page.locator("details.daily-push .daily-push-line").textContent()).toBe(
      "Notifications need JavaScript.",
    );
  } finally {
    await bare.close();
  }
});

test("subscribe, change the hour and unsubscribe on the Hindi home, against the real endpoints", async () => {
  const context = await newContext();
  const subscription = fakeSubscription();
  try {
    await context.addInitScript(stubScript(subscription, "granted"));
    const { page, errors } = await newTab(context);
    await page.goto(`${server.url}/hindi/home`);
    await page.waitForSelector("html[data-hydrated]");
    const control = page.locator("details.daily-push");
    await control.locator("summary").click();
    const panel = page.locator(".daily-push-panel");
    await page.locator('.daily-push-panel[data-state="off"]').waitFor();
    // Defaults: the page's language, 07:00, the browser's time zone.
    expect(await panel.locator('select[name="language"]').inputValue()).toBe("hindi");
    expect(await panel.locator('select[name="hour"]').inputValue()).toBe("7");
    expect(await panel.locator(".daily-push-zone").textContent()).toBe("समय क्षेत्र: Europe/Paris");

    const posted = page.waitForResponse(
      (response) => response.url().endsWith("/push/subscriptions") && response.request().method() === "POST",
    );
    await panel.getByRole("button", { name: "सदस्यता लें" }).click();
    const created = await posted;
    expect(created.status()).toBe(201);
    expect(created.request().postDataJSON()).toEqual({
      subscription,
      language: "hindi",
      hour: 7,
      timeZone: "Europe/Paris",
    });
    await page.locator('.daily-push-panel[data-state="on"]').waitFor();
    expect(await panel.locator('[role="status"]').textContent()).toBe(
      "आपको आज की सूक्ति हिंदी में 07:00 बजे (Europe/Paris) मिलेगी।",
    );
    await expect.poll(() => control.locator("summary").textContent()).toBe("रोज़ की सूक्ति सूचना से · चालू 07:00");
    expect(await stubState(page)).toMatchObject({ asked: 1, subscribed: true });
    // The server has it: the same endpoint posted again is an update.
    expect(await postAgain(subscription, "hindi", 7)).toBe(200);

    // Change: 09:00 in Marathi, the same subscription (200), asked nothing more.
    await panel.getByRole("button", { name: "बदलें" }).click();
    await panel.locator('select[name="hour"]').selectOption("9");
    await panel.locator('select[name="language"]').selectOption("marathi");
    const updated = page.waitForResponse(
      (response) => response.url().endsWith("/push/subscriptions") && response.request().method() === "POST",
    );
    await panel.getByRole("button", { name: "सहेजें" }).click();
    expect((await updated).status()).toBe(200);
    await expect
      .poll(() => panel.locator('[role="status"]').textContent())
      .toBe("आपको आज की सूक्ति मराठी में 09:00 बजे (Europe/Paris) मिलेगी।");

    // A reload shows it on, from what the browser remembers.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => control.locator("summary").textContent()).toBe("रोज़ की सूक्ति सूचना से · चालू 09:00");
    await control.locator("summary").click();
    await page.locator('.daily-push-panel[data-state="on"]').waitFor();
    expect(JSON.parse((await stubState(page)).choice ?? "null")).toEqual({
      language: "marathi",
      hour: 9,
      timeZone: "Europe/Paris",
    });
    // The worker's copy, for renewing a subscription the push service changed.
    expect(
      await page.evaluate(async () =>
        (await (await caches.open("sukti:push")).match("/__sw/push-choice.json"))?.json(),
      ),
    ).toEqual({ language: "marathi", hour: 9, timeZone: "Europe/Paris" });

    // Unsubscribe: DELETE 204, then the browser's subscription goes.
    const deleted = page.waitForResponse(
      (response) =>
        response.url().endsWith("/push/subscriptions") && response.request().method() === "DELETE",
    );
    await panel.getByRole("button", { name: "सदस्यता छोड़ें" }).click();
    const gone = await deleted;
    expect(gone.status()).toBe(204);
    expect(gone.request().postDataJSON()).toEqual({ endpoint: subscription.endpoint });
    await page.locator('.daily-push-panel[data-state="off"]').waitFor();
    await expect.poll(() => control.locator("summary").textContent()).toBe("रोज़ की सूक्ति सूचना से");
    expect(await stubState(page)).toMatchObject({ subscribed: false, unsubscribed: 1, choice: null });
    expect(await page.evaluate(async () => (await caches.keys()).includes("sukti:push"))).toBe(false);
    // The server no longer has it: posted again, it is new.
    expect(await postAgain(subscription, "hindi", 7)).toBe(201);
    expect(await deleteIt(subscription)).toBe(204);
    expect(violations(errors)).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a reader who blocks notifications on an English post is told how to allow them, and nothing is stored", async () => {
  const context = await newContext();
  const subscription = fakeSubscription();
  try {
    await context.addInitScript(stubScript(subscription, "denied"));
    const { page, errors } = await newTab(context);
    await page.goto(`${server.url}/english/home`);
    const post = (await page.locator(".post-grid .post-card-link").first().getAttribute("href")) ?? "";
    await page.goto(`${server.url}${post}`);
    await page.waitForSelector("html[data-hydrated]");
    const control = page.locator("details.daily-push");
    expect(await control.getAttribute("lang")).toBe("en");
    await control.locator("summary").click();
    const panel = page.locator(".daily-push-panel");
    await page.locator('.daily-push-panel[data-state="off"]').waitFor();
    expect(await panel.locator('select[name="language"]').inputValue()).toBe("english");
    await panel.getByRole("button", { name: "Subscribe" }).click();
    await page.locator('.daily-push-panel[data-state="denied"]').waitFor();
    expect(await panel.textContent()).toContain("Notifications are blocked for this site. To allow them");
    expect(await stubState(page)).toMatchObject({ asked: 1, subscribed: false, choice: null });
    // Later visits say so as soon as the control is opened, without asking again.
    await page.reload();
    await page.waitForSelector("html[data-hydrated]");
    await control.locator("summary").click();
    await page.locator('.daily-push-panel[data-state="denied"]').waitFor();
    expect(await stubState(page)).toMatchObject({ asked: 1 });
    // The server never heard of it.
    expect(await postAgain(subscription, "english", 7)).toBe(201);
    expect(await deleteIt(subscription)).toBe(204);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("an endpoint the server refuses (400) is one line of error; the subscription made for it is dropped", async () => {
  const context = await newContext();
  try {
    // Not on PUSH_ENDPOINT_HOSTS: the server refuses it and never contacts it.
    const refused = { ...fakeSubscription(), endpoint: `http://127.0.0.1:${pushPort + 1}/push/x` };
    await context.addInitScript(stubScript(refused, "granted"));
    const { page, errors } = await newTab(context);
    await page.goto(`${server.url}/marathi/home`);
    await page.waitForSelector("html[data-hydrated]");
    await page.locator("details.daily-push summary").click();
    const panel = page.locator(".daily-push-panel");
    await page.locator('.daily-push-panel[data-state="off"]').waitFor();
    const posted = page.waitForResponse(
      (response) => response.url().endsWith("/push/subscriptions") && response.request().method() === "POST",
    );
    await panel.getByRole("button", { name: "सदस्यता घ्या" }).click();
    expect((await posted).status()).toBe(400);
    await page.locator('.daily-push-panel[data-state="error"]').waitFor();
    expect(await panel.getByRole("alert").textContent()).toBe(
      "हे झाले नाही, काहीही बदलले नाही. कृपया नंतर पुन्हा प्रयत्न करा.",
    );
    // The form is still there to try again; nothing is remembered.
    expect(await panel.getByRole("button", { name: "सदस्यता घ्या" }).count()).toBe(1);
    expect(await stubState(page)).toMatchObject({ subscribed: false, unsubscribed: 1, choice: null });
    // The browser logs the 400 of a fetch; nothing else went wrong.
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  } finally {
    await context.close();
  }
});

test("the worker shows a pushed quote as a notification in its language, and opens only this site's addresses", async () => {
  const context = await newContext();
  try {
    const origin = server.url;
    await context.grantPermissions(["notifications"], { origin });
    const { page, errors } = await newTab(context);
    await page.goto(`${origin}/english/home`);
    const post = (await page.locator(".post-grid .post-card-link").first().getAttribute("href")) ?? "";
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: READY_MS,
    });
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${origin}/`);
        if (ours && !ours.isDeleted) resolve(ours.registrationId);
      });
    });
    // The registration's worker activated (not still activating): a push is sent to it then.
    const activated = new Promise<void>((resolve) => {
      cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
        if (
          versions.some(
            (version) => version.scriptURL === `${origin}/sw.js` && version.status === "activated",
          )
        )
          resolve();
      });
    });
    await cdp.send("ServiceWorker.enable");
    const id = await registrationId;
    await activated;
    const push = (payload: unknown) =>
      cdp.send("ServiceWorker.deliverPushMessage", {
        origin,
        registrationId: id,
        data: JSON.stringify(payload),
      });
    const notifications = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
          title: notification.title,
          body: notification.body,
          lang: notification.lang,
          tag: notification.tag,
          icon: new URL(notification.icon).pathname,
          url: (notification.data as { url: string }).url,
        })),
      );

    const quote = {
      title: "प्रेम",
      body: "प्रेम गली अति साँकरी",
      url: `${origin}${post}`,
      lang: "hi",
      tag: "daily-hindi",
    };
    // Now and then (once in six full runs on a quiet machine, again beside two CPU
    // hogs for the second message below) Chromium shows nothing for a push DevTools
    // delivered: it says when a message is handed over, not when the worker got it.
    // A push service sends a message again that was not taken; so does this test,
    // once, after 20 s without a notification of the message's tag. What the worker
    // shows is asserted exactly after it either way.
    const pushUntilShown = async (payload: { tag: string; [field: string]: unknown }) => {
      const shown = async () => (await notifications()).some((shown) => shown.tag === payload.tag);
      await push(payload);
      const shownBy = Date.now() + 20_000;
      while (!(await shown()) && Date.now() < shownBy)
        await new Promise((resolve) => setTimeout(resolve, 250));
      if (!(await shown())) await push(payload);
    };
    await pushUntilShown(quote);
    await expect.poll(notifications, { timeout: READY_MS }).toEqual([
      {
        title: "प्रेम",
        body: "प्रेम गली अति साँकरी",
        lang: "hi",
        tag: "daily-hindi",
        icon: "/icons/icon-192.png",
        url: `${origin}${post}`,
      },
    ]);
    // The announced quote is kept for reading offline.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const urls: string[] = [];
            for (const name of await caches.keys()) {
              const meta = await (await caches.open(name)).match("/__sw/meta.json");
              if (meta)
                for (const kept of (await meta.json()).pages as { url: string }[]) urls.push(kept.url);
            }
            return urls;
          }),
        { timeout: READY_MS },
      )
      .toContain(post);

    // Another origin in the payload: the notification opens the site's home instead.
    await pushUntilShown({
      title: "Elsewhere",
      body: "",
      url: "https://evil.example/english/x",
      lang: "en",
      tag: "other",
    });
    await expect
      .poll(async () => (await notifications()).find((notification) => notification.tag === "other")?.url, {
        timeout: READY_MS,
      })
      .toBe(`${origin}/`);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
