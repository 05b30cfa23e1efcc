import { expect, test } from "vitest";
import { teaserText } from "./post-view.ts";

test("a teaser ends at a sentence or a word, with an ellipsis when the text goes on", () => {
  // The quote goes on after a colon: an ellipsis, not the colon.
  expect(
    teaserText("Between the poles of the conscious and the unconscious, there has the mind made a swing:"),
  ).toBe("Between the poles of the conscious and the unconscious, there has the mind made a swing…");
  expect(teaserText("A whole sentence.")).toBe("A whole sentence.");
  expect(teaserText("पायो जी मैंने राम रतन धन पायो।")).toBe("पायो जी मैंने राम रतन धन पायो।");
  const long = `${"word ".repeat(30)}end. ${"more ".repeat(30)}`;
  const cut = teaserText(long, 200);
  expect(cut.length).toBeLessThanOrEqual(202);
  expect(cut).toMatch(/end\. …$/);
  const noSentence = teaserText("lorem ".repeat(60), 100);
  expect(noSentence).toMatch(/^(lorem )+lorem…$/);
  expect(noSentence.length).toBeLessThanOrEqual(101);
  expect(teaserText("   ")).toBe("");
});
