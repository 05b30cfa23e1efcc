// Decision 052 in Chromium. Speech synthesis is the browser's
// and its voices are the machine's, so each page gets a stand-in
// window.speechSynthesis (an init script) with a voice list the test chooses,
// loaded asynchronously as Chrome does ('voiceschanged'), and recording every
// call. The recording is a tiny WAV of silence in the server's AUDIO_DIR.
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newPage } from "#tests/support/browser.ts";
import { runSukti } from "#tests/support/cli.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";
import { silentWav } from "#tests/support/wav.ts";

const HINDI_TEXT = "पोथी पढ़ि पढ़ि जग मुआ, पंडित भया न कोय। ढाई आखर प्रेम का, पढ़े सो पंडित होय॥";

let dir = "";
let server: RunningServer | null = null;
let browser: Browser | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sukti-listen-e2e-"));
  mkdirSync(path.join(dir, "audio"));
  writeFileSync(path.join(dir, "audio", "dhai-akhar.wav"), silentWav(4000));
  const databaseUrl = `file:${path.join(dir, "sukti.db")}`;
  const file = path.join(dir, "posts.json");
  const post = (language: string, slug: string, title: string, content: string, audio = "") => ({
    idNum: 1,
    language,
    status: "publish",
    postTime: 1_700_000_000,
    title,
    slug,
    content,
    audio,
  });
  writeFileSync(
    file,
    JSON.stringify({
      posts: [
        post("hindi", "dhai-akhar", "ढाई आखर", `<p>${HINDI_TEXT}</p>`, "/audio/dhai-akhar.wav"),
        post("english", "the-river", "The river", "<p>The river does not drink its own water.</p>"),
        {
          ...post("hindi", "prem-gali", "प्रेम गली", "<p>प्रेम गली अति साँकरी, तामें दो न समाहिं।</p>"),
          idNum: 2,
          postTime: 1_700_000_500,
        },
      ],
    }),
  );
  const result = await runSukti(["import", file], { DATABASE_URL: databaseUrl });
  expect(result.status, result.stderr).toBe(0);
  [server, browser] = await Promise.all([
    startServer({ env: { DATABASE_URL: databaseUrl, AUDIO_DIR: path.join(dir, "audio") } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * window.speechSynthesis with `voices` (from the start, or only once the test
 * calls window.__loadVoices()); every call in window.__speech.
 */
function stubSpeech({ voices, atStart }: { voices: { lang: string; name: string }[]; atStart: boolean }) {
  const w = window as unknown as Record<string, unknown>;
  const calls: unknown[] = [];
  const listeners = new Set<() => void>();
  let loaded: typeof voices = atStart ? voices : [];
  w.__speech = calls;
  w.__loadVoices = () => {
    loaded = voices;
    for (const listener of listeners) listener();
  };
  const synth = {
    getVoices: () => loaded,
    speak: (utterance: SpeechSynthesisUtterance) =>
      calls.push({ call: "speak", text: utterance.text, lang: utterance.lang }),
    pause: () => calls.push({ call: "pause" }),
    resume: () => calls.push({ call: "resume" }),
    cancel: () => calls.push({ call: "cancel" }),
    addEventListener: (type: string, listener: () => void) => {
      if (type === "voiceschanged") listeners.add(listener);
    },
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  Object.defineProperty(window, "speechSynthesis", { configurable: true, get: () => synth });
}

async function openWithVoices(
  voices: { lang: string; name: string }[],
  address: string,
  atStart = false,
  viewport = { width: 1280, height: 800 },
) {
  const opened = await newPage(browser!, { viewport });
  await opened.page.addInitScript(stubSpeech, { voices, atStart });
  await opened.page.goto(`${server!.url}${address}`);
  await opened.page.waitForSelector("html[data-hydrated]");
  return opened;
}

const speech = (page: Page) => page.evaluate(() => (window as unknown as { __speech: unknown[] }).__speech);

test("with a Hindi voice, a Hindi post reads its title and text in hi-IN; pause, resume and stop reach the browser", async () => {
  const { context, page, errors } = await openWithVoices(
    [
      { lang: "en-US", name: "English" },
      { lang: "hi-IN", name: "Hindi" },
    ],
    "/hindi/dhai-akhar",
  );
  // No voice yet: no button. Chrome's voices arrive later.
  expect(await page.getByRole("button", { name: "सुनें" }).count()).toBe(0);
  await page.evaluate(() => (window as unknown as { __loadVoices: () => void }).__loadVoices());
  await page.getByRole("button", { name: "सुनें" }).click();
  await page.getByRole("button", { name: "रोकें" }).click();
  await page.getByRole("button", { name: "जारी रखें" }).click();
  await page.getByRole("button", { name: "बंद करें" }).click();
  await page.getByRole("button", { name: "सुनें" }).waitFor();
  expect(await speech(page)).toEqual([
    { call: "cancel" },
    { call: "speak", text: "ढाई आखर", lang: "hi-IN" },
    { call: "speak", text: HINDI_TEXT, lang: "hi-IN" },
    { call: "pause" },
    { call: "resume" },
    { call: "cancel" },
  ]);
  expect(errors).toEqual([]);
  await context.close();
});

test("with only an English voice, a Hindi post has no Listen button; an English post has one", async () => {
  const voices = [{ lang: "en-US", name: "English" }];
  // Voices there from the start: the voice check and the speed buttons are set in the same
  // effects after hydration, so once the speed buttons show, the check is done.
  const hindi = await openWithVoices(voices, "/hindi/dhai-akhar", true);
  await hindi.page.getByRole("button", { name: "1.5×" }).waitFor();
  expect(await hindi.page.locator(".listen-controls").count()).toBe(0);
  expect(await hindi.page.getByRole("button", { name: "सुनें" }).count()).toBe(0);
  expect(hindi.errors).toEqual([]);
  await hindi.context.close();

  const english = await openWithVoices(voices, "/english/the-river", true);
  await english.page.getByRole("button", { name: "Listen" }).click();
  expect(await speech(english.page)).toEqual([
    { call: "cancel" },
    // The title is the quote's opening words: read once.
    { call: "speak", text: "The river does not drink its own water.", lang: "en-IN" },
  ]);
  expect(english.errors).toEqual([]);
  await english.context.close();
});

test("the recording's speed buttons set the player's playbackRate; all of it fits a 360 px phone", async () => {
  const { context, page, errors } = await openWithVoices(
    [{ lang: "hi-IN", name: "Hindi" }],
    "/hindi/dhai-akhar",
    true,
    { width: 360, height: 740 },
  );
  const audio = page.locator("audio");
  expect(await audio.getAttribute("src")).toBe("/audio/dhai-akhar.wav");
  expect(await audio.getAttribute("preload")).toBe("none");
  const speed = page.getByRole("group", { name: "गति" });
  expect(await speed.getByRole("button", { name: "1×" }).getAttribute("aria-pressed")).toBe("true");
  await speed.getByRole("button", { name: "1.5×" }).click();
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.playbackRate)).toBe(1.5);
  expect(await speed.getByRole("button", { name: "1.5×" }).getAttribute("aria-pressed")).toBe("true");
  await speed.getByRole("button", { name: "0.75×" }).click();
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.playbackRate)).toBe(0.75);
  await page.getByRole("button", { name: "सुनें" }).waitFor();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  await page.locator(".listen").screenshot({
    path: path.resolve(import.meta.dirname, "../../test-results/screenshots/listen-hindi-360.png"),
  });
  expect(errors).toEqual([]);
  await context.close();
});

test("without JavaScript: the native player, no Listen button and no speed buttons", async () => {
  const { context, page } = await newPage(browser!, { javaScriptEnabled: false });
  await page.goto(`${server!.url}/hindi/dhai-akhar`);
  expect(await page.locator("audio[controls]").count()).toBe(1);
  expect(await page.locator(".listen button").count()).toBe(0);
  await context.close();
});

test("moving to another post while it reads stops the reading; the next post offers Listen afresh", async () => {
  const { context, page, errors } = await openWithVoices(
    [{ lang: "hi-IN", name: "Hindi" }],
    "/hindi/dhai-akhar",
    true,
  );
  await page.getByRole("button", { name: "सुनें" }).click();
  await page.getByRole("button", { name: "रोकें" }).waitFor();
  await page.locator(".post-nav-next").click();
  await expect.poll(() => page.locator("h1").textContent()).toBe("प्रेम गली");
  await page.getByRole("button", { name: "सुनें" }).waitFor();
  expect(await page.getByRole("button", { name: "रोकें" }).count()).toBe(0);
  const calls = (await speech(page)) as { call: string }[];
  expect(calls.map((entry) => entry.call)).toEqual(["cancel", "speak", "speak", "cancel"]);
  expect(errors).toEqual([]);
  await context.close();
});
