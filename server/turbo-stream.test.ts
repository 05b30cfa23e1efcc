// turbo-stream.ts writes what React Router's own encoder (its vendored
// turbo-stream 2, found in its build by its source path) writes for plain
// loader data: the same text, value for value, on generated data with the
// cases its encoding treats apart (repeated strings and objects, -0, NaN,
// infinities, undefined, holes); and refuses what it does not write here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { seededRandom } from "#app/content/sampling.ts";
import { NotPlainData, streamChunkScript, turboStreamOf } from "./turbo-stream.ts";

/** React Router's encode(), from the chunk of its build that holds turbo-stream. */
async function reactRouterEncode(): Promise<(value: unknown) => ReadableStream<Uint8Array>> {
  const dir = path.join(import.meta.dirname, "..", "node_modules", "react-router", "dist", "development");
  const chunk = readdirSync(dir).find(
    (name) =>
      name.endsWith(".mjs") &&
      readFileSync(path.join(dir, name), "utf8").includes("vendor/turbo-stream-v2/turbo-stream.ts"),
  );
  if (!chunk) throw new Error("React Router's build holds no turbo-stream chunk: look for its encoder again");
  const module = (await import(path.join(dir, chunk))) as {
    encode?: (value: unknown) => ReadableStream<Uint8Array>;
  };
  if (typeof module.encode !== "function") throw new Error(`${chunk} exports no encode`);
  return module.encode;
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function generated(random: () => number, depth = 0): unknown {
  const strings = ["", "a", "प्रेम", 'say "hi" & <go>', "\u2028", "_1", "routes/english"];
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const roll = random();
  if (depth > 3 || roll < 0.35) {
    return pick<unknown>([
      ...strings,
      0,
      -0,
      1,
      -1.5,
      42,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      true,
      false,
      null,
      undefined,
    ]);
  }
  if (roll < 0.6) {
    const list: unknown[] = Array.from({ length: Math.floor(random() * 5) }, () =>
      generated(random, depth + 1),
    );
    if (random() < 0.2) list[list.length + 1] = "after a hole";
    return list;
  }
  const record: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 5); i > 0; i--)
    record[pick(["kind", "post", "title", "href", "a", "प्रेम"])] = generated(random, depth + 1);
  return record;
}

test("turbo-stream written here is React Router's own, value for value", async () => {
  const encode = await reactRouterEncode();
  const random = seededRandom(97);
  for (let round = 0; round < 400; round++) {
    const shared = { title: "shared", list: [1, 2] };
    const value = {
      loaderData: { root: generated(random), route: [generated(random), shared, shared] },
      actionData: null,
      errors: null,
    };
    expect(turboStreamOf(value)).toBe(await text(encode(value)));
  }
  for (const value of [null, undefined, "", "x", 0, -0, Number.NaN, [], {}]) {
    expect(turboStreamOf(value)).toBe(await text(encode(value)));
  }
});

test("anything but plain data is refused, for the page to be rendered the long way", () => {
  for (const value of [
    new Date(0),
    new Map(),
    new Set([1]),
    Promise.resolve(1),
    new (class Post {})(),
    () => 1,
    1n,
    Symbol.for("x"),
  ]) {
    expect(() => turboStreamOf({ data: value })).toThrow(NotPlainData);
  }
});

test("the stream's chunk stands in an inline script that no text can close", () => {
  const script = streamChunkScript('[{"a":"</script><!-- & \u2028"}]\n');
  expect(script).not.toMatch(/<\/script|<!--|[&\u2028]/i);
  expect(script.startsWith("window.__reactRouterContext.streamController.enqueue(")).toBe(true);
});
