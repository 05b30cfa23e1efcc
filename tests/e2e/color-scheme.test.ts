// Dark mode (decision 038) follows prefers-color-scheme, with body text at least
// 7:1 on its background in both schemes, links and muted text legible too.
// Decision 046: each page is styled by its inline stylesheet, which its CSP
// allows by hash (no 'unsafe-inline'), with no CSP violation on the console
// (tests/support/browser.ts reports each one as an error).
import { expect, test } from "vitest";
import { newTab, useServerAndBrowser } from "#tests/support/browser.ts";

const env = useServerAndBrowser();

/** The page's paper in each scheme: app/styles/app.css's --paper, which only the stylesheet sets. */
const PAPER = { light: "rgb(255, 250, 242)", dark: "rgb(26, 20, 16)" };

/** WCAG contrast of two CSS colours as the browser computes them ("rgb(r, g, b)"). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`${colorScheme}: body text 7:1, muted text and links 4.5:1, on pages and cards`, async () => {
    const { page, errors } = await newTab(env.context, { colorScheme });
    for (const path of ["/", "/english/home", "/tags", "/search/love"]) {
      await page.goto(`${env.server.url}${path}`);
      // Styled by the inline stylesheet (a blocked one leaves the browser's own colours and fonts).
      const styled = await page.evaluate(() => ({
        paper: getComputedStyle(document.body).backgroundColor,
        font: getComputedStyle(document.body).fontFamily,
        skipLink: getComputedStyle(document.querySelector(".skip-link")!).position,
      }));
      expect(styled, path).toEqual({
        paper: PAPER[colorScheme],
        font: expect.stringMatching(/^"Noto Sans"/),
        skipLink: "absolute",
      });
      const colors = await page.evaluate(() => {
        const style = (selector: string) => {
          const element = document.querySelector(selector);
          return element ? getComputedStyle(element) : null;
        };
        const body = style("body")!;
        return {
          text: body.color,
          paper: body.backgroundColor,
          muted: style(".site-footer, footer")?.color ?? body.color,
          // A text link, on the page's paper (not a chip drawn on a background of its own).
          link: (() => {
            for (const a of document.querySelectorAll("main a")) {
              const own = getComputedStyle(a);
              if (own.backgroundColor === "rgba(0, 0, 0, 0)") return own.color;
            }
            return body.color;
          })(),
          card: style(".post-card, .hero-link, .gallery-tile a")?.backgroundColor ?? body.backgroundColor,
          cardText: style(".post-card, .hero-link, .gallery-tile a")?.color ?? body.color,
        };
      });
      expect(contrast(colors.text, colors.paper), `${path} body`).toBeGreaterThanOrEqual(7);
      expect(contrast(colors.cardText, colors.card), `${path} card`).toBeGreaterThanOrEqual(7);
      expect(contrast(colors.muted, colors.paper), `${path} muted`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colors.link, colors.paper), `${path} link`).toBeGreaterThanOrEqual(4.5);
      // The two schemes differ: dark means a dark page.
      const dark = contrast(colors.paper, "rgb(0, 0, 0)") < contrast(colors.paper, "rgb(255, 255, 255)");
      expect(dark, `${path} is ${colorScheme}`).toBe(colorScheme === "dark");
    }
    expect(errors).toEqual([]);
    await page.close();
  });
}
