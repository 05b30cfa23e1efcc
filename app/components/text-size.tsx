// Larger and smaller text (decision 051). The step lives in
// localStorage and on <html data-text-size>, where a tiny script in the
// <head> puts it before the first paint (TextSizeScript), so a page opens
// at the reader's size with no jump. The stylesheet scales the reading text
// (quote, titles, cards, search hits) in rem by the step, so browser zoom and
// the browser's own font size still apply on top. The buttons show only when
// that script has run (html[data-text-size]): without JavaScript they could
// not work, so they are not shown.
import { useEffect, useState } from "react";
import {
  DEFAULT_TEXT_SIZE,
  TEXT_SIZE_KEY as KEY,
  TEXT_SIZE_STEPS,
} from "#app/components/text-size-script.tsx";
import type { ReadingLabels } from "#app/content/reading-labels.ts";

function currentStep(): number {
  const step = Number(document.documentElement.dataset.textSize);
  return Number.isInteger(step) && step >= 0 && step < TEXT_SIZE_STEPS ? step : DEFAULT_TEXT_SIZE;
}

export function TextSizeControls({ labels }: { labels: ReadingLabels }) {
  const [step, setStep] = useState<number | null>(null);
  useEffect(() => setStep(currentStep()), []);
  const change = (delta: number) => {
    const next = Math.min(TEXT_SIZE_STEPS - 1, Math.max(0, currentStep() + delta));
    document.documentElement.dataset.textSize = String(next);
    try {
      localStorage.setItem(KEY, String(next));
    } catch {
      // Storage off: the size holds for this page only.
    }
    setStep(next);
  };
  return (
    <fieldset className="text-size" aria-label={labels.textSize}>
      <button
        type="button"
        className="text-size-button"
        aria-label={labels.smallerText}
        title={labels.smallerText}
        disabled={step === 0}
        onClick={() => change(-1)}
      >
        <span aria-hidden="true">A−</span>
      </button>
      <button
        type="button"
        className="text-size-button"
        aria-label={labels.largerText}
        title={labels.largerText}
        disabled={step === TEXT_SIZE_STEPS - 1}
        onClick={() => change(1)}
      >
        <span aria-hidden="true">A+</span>
      </button>
    </fieldset>
  );
}
