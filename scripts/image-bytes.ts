// `npm run size` (second part): the image bytes each page loads on a phone
// (360 × 780 CSS px at 2× pixels, as most phones) and a desktop (1280 × 800
// at 1×), before any scroll: the built server on its demo data, Debian's
// Chromium. Exits 1 when /english/home on the phone is over its budget
// (decision 038: under 150 KiB of images at first load).
import { launchBrowser } from "#tests/support/chromium.ts";
import { startServer } from "#tests/support/server.ts";

const PHONE_BUDGET = 150 * 1024;
const PAGES = [
  "/",
  "/english/home",
  "/hindi/home",
  "/marathi/home",
  "/english/this-is-my-prayer-to-thee",
  // A list where 6 of 16 posts have no image and show their quote card (decision 064).
  "/tag/faith",
  "/people/kabir",
  "/tags",
];
const DEVICES = [
  { name: "phone 360", viewport: { width: 360, height: 780 }, deviceScaleFactor: 2 },
  { name: "desktop 1280", viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
] as const;

const server = await startServer();
const browser = await launchBrowser();
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
let over = false;
try {
  console.log(
    `\nimage bytes (count): at first view, and the whole page scrolled through; built server, demo data\n`,
  );
  console.log(
    `${"page".padEnd(40)}${DEVICES.map((d) => `${d.name} first`.padStart(16) + `${d.name} all`.padStart(18)).join("")}`,
  );
  for (const path of PAGES) {
    const cells: string[] = [];
    for (const device of DEVICES) {
      const context = await browser.newContext({
        viewport: device.viewport,
        deviceScaleFactor: device.deviceScaleFactor,
      });
      const page = await context.newPage();
      // The browser's own account of each image it fetched (same origin: sizes are exposed).
      const measure = () =>
        page.evaluate(() => {
          const images = performance
            .getEntriesByType("resource")
            .filter(
              (entry) => (entry as PerformanceResourceTiming).initiatorType === "img",
            ) as PerformanceResourceTiming[];
          return {
            bytes: images.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
            count: images.length,
          };
        });
      await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
      await page.waitForTimeout(300);
      const { bytes: first, count: firstCount } = await measure();
      // Then the whole page, scrolled through: every lazy image loads.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(300);
      const { bytes, count } = await measure();
      await context.close();
      cells.push(`${kib(first)} (${firstCount})`.padStart(16), `${kib(bytes)} (${count})`.padStart(18));
      if (path === "/english/home" && device.name === "phone 360" && first > PHONE_BUDGET) over = true;
    }
    console.log(`${path.padEnd(40)}${cells.join("")}`);
  }
  console.log(`\n/english/home on a phone: budget ${kib(PHONE_BUDGET)} of images`);
} finally {
  await browser.close();
  await server.stop();
}
if (over) {
  console.error("size: /english/home loads more image bytes on a phone than its budget");
  process.exit(1);
}
