// The reader's choice for the daily quote by Web Push (decision 061): the
// little the "Daily quote" control's summary needs on every language home and
// post page. The rest (daily-push.ts) is loaded with the panel, on click.
import { isLanguage, type Language } from "#app/content/languages.ts";

/** What the reader chose: sent with the subscription, remembered in the browser. */
export interface PushChoice {
  language: Language;
  /** 0..23, in `timeZone`. */
  hour: number;
  /** IANA name, from the browser. */
  timeZone: string;
}

/** localStorage: the choice, so the control shows it (nothing else about the reader is kept). */
export const CHOICE_KEY = "sukti-daily-push";
export const DEFAULT_HOUR = 7;

export function readChoice(value: unknown): PushChoice | null {
  if (!value || typeof value !== "object") return null;
  const { language, hour, timeZone } = value as Record<string, unknown>;
  if (!isLanguage(language) || !Number.isInteger(hour) || typeof timeZone !== "string") return null;
  if ((hour as number) < 0 || (hour as number) > 23 || !timeZone) return null;
  return { language, hour: hour as number, timeZone };
}

/** "07:00". */
export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, "0")}:00`;
}
