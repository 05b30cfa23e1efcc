// The service worker's side of the daily quote (decision 061):
// a push shows the quote as a notification, a click opens (or focuses) its
// page on this site only, and a subscription the push service renewed is
// sent to the server again with the reader's choice. Registered by sw.ts.
import {
  deleteSubscription,
  fetchPublicKey,
  noticeOf,
  sendSubscription,
  workerChoice,
} from "#app/content/daily-push.ts";

// The worker's own types (the project compiles against the DOM library).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription: PushSubscription | null;
  newSubscription: PushSubscription | null;
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
export interface PushScope {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  addEventListener(
    type: "pushsubscriptionchange",
    listener: (event: PushSubscriptionChangeEvent) => void,
  ): void;
}

/** The manifest's 192 px icon (app/routes/manifest.ts). */
const ICON = "/icons/icon-192.png";
const POST = /^\/(?:english|hindi|marathi)\/(?!home$)[^/]+$/;

/**
 * @param keep keeps a page of this site for offline reading (sw.ts): the
 * quote a notification announces is fetched once, so it opens offline too.
 */
export function listenForPushes(scope: PushScope, keep: (path: string) => Promise<unknown>): void {
  const origin = scope.location.origin;

  scope.addEventListener("push", (event) => {
    let payload: unknown = null;
    try {
      payload = event.data?.json() ?? null;
    } catch {
      // Not JSON: the fallback notification (noticeOf) is shown.
    }
    const notice = noticeOf(payload, origin);
    const options: NotificationOptions = {
      body: notice.body,
      tag: notice.tag,
      icon: ICON,
      data: { url: notice.url },
    };
    if (notice.lang) options.lang = notice.lang;
    event.waitUntil(
      scope.registration.showNotification(notice.title, options).then(() => {
        const path = new URL(notice.url).pathname;
        return POST.test(path) ? keep(path).catch(() => {}) : undefined;
      }),
    );
  });

  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    // Checked again: only an address on this site is ever opened.
    const url = noticeOf({ url: (event.notification.data as { url?: unknown } | null)?.url }, origin).url;
    event.waitUntil(
      (async () => {
        const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
        const open = windows.find((client) => client.url === url);
        if (open) await open.focus();
        else await scope.clients.openWindow(url);
      })(),
    );
  });

  scope.addEventListener("pushsubscriptionchange", (event) => {
    event.waitUntil(
      (async () => {
        const choice = await workerChoice();
        if (!choice) return; // the reader's choice is not known here: the page subscribes again
        const subscription =
          event.newSubscription ??
          (await scope.registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: await fetchPublicKey(),
          }));
        await sendSubscription(subscription, choice);
        const old = event.oldSubscription?.endpoint;
        if (old && old !== subscription.endpoint) await deleteSubscription(old);
      })().catch(() => {}),
    );
  });
}
