// The "Daily quote" control (decision 061) on each language home
// and post page: a <details> whose summary is all the server renders. Opening
// it loads the panel (daily-push-panel.tsx: the form, its labels and the Web
// Push calls) by a dynamic import, so the route's own chunk grows by this file
// only. Nothing is asked of the browser before the reader clicks Subscribe.
// Without JavaScript the disclosure opens on one line saying it needs it.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { CHOICE_KEY, hourLabel, type PushChoice, readChoice } from "#app/content/daily-push-choice.ts";
import { LANG_TAG, type Language } from "#app/content/languages.ts";

const Panel = lazy(() => import("#app/components/daily-push-panel.tsx"));

/** The summary's words; the panel brings the rest (apart from labels.ts, which every page loads). */
export const DAILY_PUSH_SUMMARY = {
  english: { summary: "Daily quote by notification", on: "on", noScript: "Notifications need JavaScript." },
  hindi: {
    summary: "रोज़ की सूक्ति सूचना से",
    on: "चालू",
    noScript: "सूचनाओं के लिए JavaScript चालू होना चाहिए।",
  },
  marathi: {
    summary: "रोजचा सुविचार सूचनेद्वारे",
    on: "सुरू",
    noScript: "सूचनांसाठी JavaScript सुरू असणे आवश्यक आहे.",
  },
} satisfies Record<Language, Record<string, string>>;

function storedHour(): number | null {
  try {
    return readChoice(JSON.parse(localStorage.getItem(CHOICE_KEY) ?? "null"))?.hour ?? null;
  } catch {
    return null;
  }
}

export function DailyPush({ language }: { language: Language }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [opened, setOpened] = useState(false);
  const [onAt, setOnAt] = useState<number | null>(null);
  const words = DAILY_PUSH_SUMMARY[language];
  const onChoice = useCallback((choice: PushChoice | null) => setOnAt(choice?.hour ?? null), []);
  useEffect(() => {
    setOnAt(storedHour());
    // Opened before the page hydrated (the toggle event went unheard).
    if (ref.current?.open) setOpened(true);
  }, []);
  return (
    <details
      ref={ref}
      className="daily-push"
      lang={LANG_TAG[language]}
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
    >
      <summary>
        {words.summary}
        {onAt !== null ? ` · ${words.on} ${hourLabel(onAt)}` : ""}
      </summary>
      {opened ? (
        <Suspense fallback={<p className="daily-push-line">…</p>}>
          <Panel language={language} onChoice={onChoice} />
        </Suspense>
      ) : (
        <p className="daily-push-line">{words.noScript}</p>
      )}
    </details>
  );
}
