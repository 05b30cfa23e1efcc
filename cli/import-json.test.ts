import { expect, test } from "vitest";
import { type JsonElement, splitJson } from "#cli/import-json.ts";

async function* chunksOf(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function split(text: string, size = text.length || 1): Promise<JsonElement[]> {
  const out: JsonElement[] = [];
  for await (const element of splitJson(chunksOf(text, size))) out.push(element);
  return out;
}

const tricky = `{
  "pages": [{"slug":"p","title":"]}[{","content":"\\"quoted\\" \\\\ back"}],
  "posts": [
    {"title":"a, b","tags":["x]","{y"]},
    {"title":"प्रेम \\u0041"}
  ]
}`;

test("splits { posts, pages } into one text per record, whatever the chunk size", async () => {
  const whole = await split(tricky);
  expect(whole.map((e) => [e.section, e.index, e.line])).toEqual([
    ["pages", 0, 2],
    ["posts", 0, 4],
    ["posts", 1, 5],
  ]);
  expect(JSON.parse(whole[0]!.text).title).toBe("]}[{");
  expect(JSON.parse(whole[0]!.text).content).toBe('"quoted" \\ back');
  expect(JSON.parse(whole[1]!.text).tags).toEqual(["x]", "{y"]);
  expect(JSON.parse(whole[2]!.text).title).toBe("प्रेम A");
  for (const size of [1, 2, 3, 7, 64]) expect(await split(tricky, size)).toEqual(whole);
});

test("a top-level array is a list of posts", async () => {
  const elements = await split('\uFEFF[ {"a":1} ,\n{"b":[1,2]}\n]\n');
  expect(elements.map((e) => [e.section, e.index, e.text])).toEqual([
    [null, 0, '{"a":1} '],
    [null, 1, '{"b":[1,2]}\n'],
  ]);
  expect(await split("[]")).toEqual([]);
  expect(await split('{"posts": []}')).toEqual([]);
});

test("structural errors name the line", async () => {
  await expect(split('[{"a":1},]')).rejects.toThrow("invalid JSON at line 1: a trailing comma before ]");
  await expect(split('[\n{"a":1}\n')).rejects.toThrow("the file ends too early");
  await expect(split('{"post": []}')).rejects.toThrow('unknown key "post"');
  await expect(split('{"posts": {}}')).rejects.toThrow('"posts" must be an array');
  await expect(split("")).rejects.toThrow("the file is empty");
  await expect(split("[1] 2")).rejects.toThrow("after the end of the data");
  await expect(split('{"posts": [], "posts": []}')).rejects.toThrow('"posts" appears twice');
  await expect(split("[,1]")).rejects.toThrow("an empty element");
});
