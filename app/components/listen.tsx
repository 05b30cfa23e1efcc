// Listening to a post (decision 052): the browser reads the quote
// aloud in the post's language, only when it has a voice for that language;
// and the teacher's own recording, when the post has one, with a speed choice.
// Without JavaScript: the native player only.
import { useEffect, useRef, useState } from "react";
import type { Language } from "#app/content/languages.ts";
import type { ReadingLabels } from "#app/content/reading-labels.ts";

/** What each post language is read in. */
export const SPEECH_LANG: Record<Language, string> = { english: "en-IN", hindi: "hi-IN", marathi: "mr-IN" };

export const SPEEDS = [0.75, 1, 1.25, 1.5] as const;

/**
 * A voice for the language: one of its region (hi-IN) first, then any of the
 * language (hi, hi_IN, hi-…); null when there is none (never an English voice
 * reading Devanagari).
 */
export function voiceFor(voices: readonly SpeechSynthesisVoice[], language: Language) {
  const wanted = SPEECH_LANG[language].toLowerCase();
  const code = wanted.slice(0, 2);
  const tag = (voice: SpeechSynthesisVoice) => String(voice.lang).replace("_", "-").toLowerCase();
  return (
    voices.find((voice) => tag(voice) === wanted) ??
    voices.find((voice) => tag(voice) === code || tag(voice).startsWith(`${code}-`)) ??
    null
  );
}

/**
 * The text in pieces of at most `max` characters: each line on its own (a
 * title is read, then a pause), a line cut after a sentence (., !, ?, ।, ॥)
 * where it must be, else at a space. Chrome stops a long utterance after ~15 s.
 */
export function speechChunks(text: string, max = 200): string[] {
  const chunks: string[] = [];
  for (const line of text.split(/\n+/)) {
    let current = "";
    for (let piece of line.split(/(?<=[.!?।॥])\s+/u)) {
      piece = piece.replace(/\s+/g, " ").trim();
      while (piece.length > max) {
        if (current) chunks.push(current);
        current = "";
        const cut = piece.lastIndexOf(" ", max);
        const at = cut > 0 ? cut : max;
        chunks.push(piece.slice(0, at));
        piece = piece.slice(at).trim();
      }
      if (!piece) continue;
      if (current && current.length + piece.length + 1 <= max) current = `${current} ${piece}`;
      else {
        if (current) chunks.push(current);
        current = piece;
      }
    }
    if (current) chunks.push(current);
  }
  return chunks;
}

type State = "idle" | "speaking" | "paused";

/** Listen / Pause / Resume / Stop, shown once the browser has a voice for the language. */
function SpeechControls({
  text,
  language,
  labels,
}: {
  text: string;
  language: Language;
  labels: ReadingLabels;
}) {
  const [voice, setVoice] = useState<SpeechSynthesisVoice | null>(null);
  const [state, setState] = useState<State>("idle");
  // Each reading's number: events of a stopped one change nothing.
  const reading = useRef(0);
  const active = useRef(false);

  useEffect(() => {
    const synth = window.speechSynthesis;
    if (!synth || typeof SpeechSynthesisUtterance === "undefined") return;
    // Voices arrive asynchronously in Chrome: look again when they change.
    const pick = () => setVoice(voiceFor(synth.getVoices(), language));
    pick();
    synth.addEventListener?.("voiceschanged", pick);
    return () => {
      synth.removeEventListener?.("voiceschanged", pick);
      reading.current++;
      if (active.current) synth.cancel();
      active.current = false;
    };
  }, [language]);

  if (!voice) return null;
  const synth = () => window.speechSynthesis;
  const done = (id: number) => () => {
    if (reading.current !== id) return;
    active.current = false;
    setState("idle");
  };
  const speak = () => {
    synth().cancel();
    const id = ++reading.current;
    const chunks = speechChunks(text);
    chunks.forEach((chunk, i) => {
      const utterance = new SpeechSynthesisUtterance(chunk);
      utterance.lang = SPEECH_LANG[language];
      try {
        utterance.voice = voice;
      } catch {
        // Not a SpeechSynthesisVoice: the lang chooses one.
      }
      utterance.onerror = done(id);
      if (i === chunks.length - 1) utterance.onend = done(id);
      synth().speak(utterance);
    });
    active.current = true;
    setState("speaking");
  };
  const stop = () => {
    reading.current++;
    active.current = false;
    synth().cancel();
    setState("idle");
  };

  return (
    <div className="listen-controls">
      {state === "idle" ? (
        <button type="button" className="share-button" onClick={speak}>
          {labels.listen}
        </button>
      ) : (
        <>
          <button
            type="button"
            className="share-button"
            onClick={() => {
              if (state === "paused") synth().resume();
              else synth().pause();
              setState(state === "paused" ? "speaking" : "paused");
            }}
          >
            {state === "paused" ? labels.listenResume : labels.listenPause}
          </button>
          <button type="button" className="share-button" onClick={stop}>
            {labels.listenStop}
          </button>
        </>
      )}
    </div>
  );
}

/** The teacher's recording: the native player, and a speed choice once the page has hydrated. */
function Recording({ src, labels }: { src: string; labels: ReadingLabels }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [rate, setRate] = useState(1);
  useEffect(() => setHydrated(true), []);
  const choose = (speed: number) => {
    const element = audio.current;
    if (element) {
      element.defaultPlaybackRate = speed;
      element.playbackRate = speed;
    }
    setRate(speed);
  };
  return (
    <figure className="post-audio">
      <figcaption>{labels.recording}</figcaption>
      {/* biome-ignore lint/a11y/useMediaCaption: the post's text, above, is what it says. */}
      <audio ref={audio} controls preload="none" src={src} />
      {hydrated ? (
        <fieldset className="audio-speed">
          <legend>{labels.playbackSpeed}</legend>
          {SPEEDS.map((speed) => (
            <button
              key={speed}
              type="button"
              className="chip"
              aria-pressed={rate === speed}
              onClick={() => choose(speed)}
            >
              {speed}×
            </button>
          ))}
        </fieldset>
      ) : null}
    </figure>
  );
}

/** A post's listening block: its recording (if any) and the browser's reading of title and text. */
export function PostListen({
  title,
  text,
  audio,
  language,
  labels,
}: {
  title: string;
  /** The quote as plain text. */
  text: string;
  /** The recording's address; "" is none. */
  audio: string;
  language: Language;
  labels: ReadingLabels;
}) {
  // A title that is the quote's opening words is not read twice.
  const opens = text.startsWith(title) && /^(?:$|[\s\p{P}])/u.test(text.slice(title.length));
  const spoken = opens ? text : `${title}\n${text}`;
  return (
    <div className="listen">
      {audio ? <Recording src={audio} labels={labels} /> : null}
      <SpeechControls text={spoken} language={language} labels={labels} />
    </div>
  );
}
