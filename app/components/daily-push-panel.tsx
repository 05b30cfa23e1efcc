// The "Daily quote" control's panel (decision 061), loaded when
// the reader opens the control (daily-push.tsx): pick language and hour,
// subscribe, change, unsubscribe. The browser's permission is asked only by
// Subscribe. The choice is remembered in localStorage (for this control) and
// in a cache entry (for the service worker, which renews a subscription the
// push service changed); nothing else about the reader is kept.
import { type ReactNode, useEffect, useId, useState } from "react";
import {
  browserTimeZone,
  CHOICE_KEY,
  DEFAULT_HOUR,
  deleteSubscription,
  fetchPublicKey,
  hourLabel,
  keepWorkerChoice,
  type PushChoice,
  readChoice,
  sameBytes,
  sendSubscription,
} from "#app/content/daily-push.ts";
import { isLanguage, LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";

const LABELS = {
  english: {
    intro: "The quote of the day as a notification on this device, at the hour you choose.",
    language: "Language",
    hour: "Hour",
    timeZone: "Time zone",
    subscribe: "Subscribe",
    save: "Save",
    change: "Change",
    cancel: "Cancel",
    unsubscribe: "Unsubscribe",
    asking: "Waiting for your browser's permission…",
    working: "One moment…",
    on: (language: string, hour: string, zone: string) =>
      `You get the quote of the day in ${language} at ${hour} (${zone}).`,
    denied:
      "Notifications are blocked for this site. To allow them, open the site's settings (the icon beside the address), allow notifications, and reload this page.",
    unsupported: "This browser cannot show notifications from websites.",
    error: "That did not work, and nothing was changed. Please try again later.",
  },
  hindi: {
    intro: "आज की सूक्ति इस डिवाइस पर सूचना के रूप में, आपके चुने हुए समय पर।",
    language: "भाषा",
    hour: "समय",
    timeZone: "समय क्षेत्र",
    subscribe: "सदस्यता लें",
    save: "सहेजें",
    change: "बदलें",
    cancel: "रद्द करें",
    unsubscribe: "सदस्यता छोड़ें",
    asking: "आपके ब्राउज़र की अनुमति की प्रतीक्षा है…",
    working: "एक क्षण…",
    on: (language: string, hour: string, zone: string) =>
      `आपको आज की सूक्ति ${language} में ${hour} बजे (${zone}) मिलेगी।`,
    denied:
      "इस साइट की सूचनाएँ रोकी गई हैं। अनुमति देने के लिए पते के पास वाले चिह्न से साइट की सेटिंग खोलें, सूचनाएँ चालू करें और पेज फिर से लोड करें।",
    unsupported: "यह ब्राउज़र वेबसाइटों की सूचनाएँ नहीं दिखा सकता।",
    error: "यह नहीं हो सका, कुछ नहीं बदला। कृपया बाद में फिर कोशिश करें।",
  },
  marathi: {
    intro: "आजचा सुविचार या डिव्हाइसवर सूचनेच्या रूपात, तुम्ही निवडलेल्या वेळी.",
    language: "भाषा",
    hour: "वेळ",
    timeZone: "वेळ क्षेत्र",
    subscribe: "सदस्यता घ्या",
    save: "जतन करा",
    change: "बदला",
    cancel: "रद्द करा",
    unsubscribe: "सदस्यता सोडा",
    asking: "तुमच्या ब्राउझरच्या परवानगीची प्रतीक्षा आहे…",
    working: "एक क्षण…",
    on: (language: string, hour: string, zone: string) =>
      `तुम्हाला आजचा सुविचार ${language} भाषेत ${hour} वाजता (${zone}) मिळेल.`,
    denied:
      "या साइटच्या सूचना बंद केल्या आहेत. परवानगी देण्यासाठी पत्त्याजवळील चिन्हातून साइटची सेटिंग्ज उघडा, सूचना सुरू करा आणि पान पुन्हा लोड करा.",
    unsupported: "हा ब्राउझर वेबसाइट्सच्या सूचना दाखवू शकत नाही.",
    error: "हे झाले नाही, काहीही बदलले नाही. कृपया नंतर पुन्हा प्रयत्न करा.",
  },
} as const;

type State =
  | { kind: "loading" | "unsupported" | "off" | "asking" | "working" | "denied" | "error" }
  | { kind: "on"; choice: PushChoice };

function supported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function storedChoice(): PushChoice | null {
  try {
    return readChoice(JSON.parse(localStorage.getItem(CHOICE_KEY) ?? "null"));
  } catch {
    return null;
  }
}

async function remember(choice: PushChoice | null): Promise<void> {
  try {
    if (choice) localStorage.setItem(CHOICE_KEY, JSON.stringify(choice));
    else localStorage.removeItem(CHOICE_KEY);
  } catch {
    // Storage off: the subscription stands; the control shows it as off next time.
  }
  await keepWorkerChoice(choice);
}

/** The site's worker (decision 049), registered here too: the root's hook waits for `load`. */
async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Subscribes (or renews with the server's key) and sends the choice; the new state. */
async function subscribe(choice: PushChoice): Promise<State> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") return { kind: "denied" };
  if (permission !== "granted") return { kind: "off" };
  const registration = await workerRegistration();
  const key = await fetchPublicKey();
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  const fresh = !subscription;
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  try {
    await sendSubscription(subscription, choice);
  } catch (error) {
    if (fresh) await subscription.unsubscribe().catch(() => {});
    throw error;
  }
  await remember(choice);
  return { kind: "on", choice };
}

async function unsubscribe(): Promise<State> {
  const subscription = await currentSubscription();
  if (subscription) {
    await deleteSubscription(subscription.endpoint);
    await subscription.unsubscribe();
  }
  await remember(null);
  return { kind: "off" };
}

export default function DailyPushPanel({
  language,
  onChoice,
}: {
  /** The page's language: the labels', and the one offered first. */
  language: Language;
  /** Told when the reader's choice changes (the summary shows the hour). */
  onChoice: (choice: PushChoice | null) => void;
}) {
  const labels = LABELS[language];
  const id = useId();
  const [state, setState] = useState<State>({ kind: "loading" });
  const [editing, setEditing] = useState(false);
  const [chosenLanguage, setChosenLanguage] = useState<Language>(language);
  const [hour, setHour] = useState(DEFAULT_HOUR);
  const timeZone = browserTimeZone();

  useEffect(() => {
    let live = true;
    (async (): Promise<State> => {
      if (!supported()) return { kind: "unsupported" };
      if (Notification.permission === "denied") return { kind: "denied" };
      const choice = storedChoice();
      const subscription = await currentSubscription();
      if (subscription && choice) return { kind: "on", choice };
      if (choice) await remember(null); // the browser dropped it: off
      return { kind: "off" };
    })()
      .catch((): State => ({ kind: "error" }))
      .then((next) => {
        if (!live) return;
        setState(next);
        onChoice(next.kind === "on" ? next.choice : null);
      });
    return () => {
      live = false;
    };
  }, [onChoice]);

  const run = (busy: "asking" | "working", action: () => Promise<State>) => {
    setState({ kind: busy });
    action()
      .catch((): State => ({ kind: "error" }))
      .then((next) => {
        setState(next);
        setEditing(false);
        if (next.kind === "on") onChoice(next.choice);
        else if (next.kind === "off") onChoice(null);
      });
  };
  const choice: PushChoice = { language: chosenLanguage, hour, timeZone };

  const form = (submitLabel: string, busy: "asking" | "working") => (
    <form
      className="daily-push-form"
      onSubmit={(event) => {
        event.preventDefault();
        run(busy, () => subscribe(choice));
      }}
    >
      <label htmlFor={`${id}-language`}>{labels.language}</label>
      <select
        id={`${id}-language`}
        name="language"
        value={chosenLanguage}
        onChange={(event) => {
          if (isLanguage(event.target.value)) setChosenLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((option) => (
          <option key={option} value={option} lang={LANG_TAG[option]}>
            {LANGUAGE_LABEL[option]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-hour`}>{labels.hour}</label>
      <select
        id={`${id}-hour`}
        name="hour"
        value={hour}
        onChange={(event) => setHour(Number(event.target.value))}
      >
        {Array.from({ length: 24 }, (_, value) => (
          <option key={value} value={value}>
            {hourLabel(value)}
          </option>
        ))}
      </select>
      <p className="daily-push-zone">
        {labels.timeZone}: <span lang="en">{timeZone}</span>
      </p>
      <p className="daily-push-actions">
        <button type="submit" className="share-button">
          {submitLabel}
        </button>
        {editing ? (
          <button type="button" className="share-button" onClick={() => setEditing(false)}>
            {labels.cancel}
          </button>
        ) : null}
      </p>
    </form>
  );

  // An error says so on one line above what stands: the stored choice, else the form.
  const stored = state.kind === "error" ? storedChoice() : null;
  const shown: State =
    state.kind !== "error" ? state : stored ? { kind: "on", choice: stored } : { kind: "off" };
  let body: ReactNode;
  switch (shown.kind) {
    case "loading":
      body = <p className="daily-push-line">…</p>;
      break;
    case "unsupported":
    case "denied":
      body = <p className="daily-push-line">{labels[shown.kind]}</p>;
      break;
    case "asking":
    case "working":
      body = (
        <p className="daily-push-line" role="status">
          {labels[shown.kind]}
        </p>
      );
      break;
    case "on":
      body = editing ? (
        form(labels.save, "working")
      ) : (
        <>
          <p className="daily-push-line" role="status">
            {labels.on(
              LANGUAGE_LABEL[shown.choice.language],
              hourLabel(shown.choice.hour),
              shown.choice.timeZone,
            )}
          </p>
          <p className="daily-push-actions">
            <button
              type="button"
              className="share-button"
              onClick={() => {
                setChosenLanguage(shown.choice.language);
                setHour(shown.choice.hour);
                setEditing(true);
              }}
            >
              {labels.change}
            </button>
            <button type="button" className="share-button" onClick={() => run("working", unsubscribe)}>
              {labels.unsubscribe}
            </button>
          </p>
        </>
      );
      break;
    default:
      body = (
        <>
          <p className="daily-push-line">{labels.intro}</p>
          {form(labels.subscribe, "asking")}
        </>
      );
  }
  return (
    <div className="daily-push-panel" data-state={state.kind}>
      {state.kind === "error" ? (
        <p className="daily-push-line daily-push-error" role="alert">
          {labels.error}
        </p>
      ) : null}
      {body}
    </div>
  );
}
