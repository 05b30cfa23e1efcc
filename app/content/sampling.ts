// SPEC §7.2 and §9: for each language, 6 random integers between 0 and that
// language's maximum idNum, duplicates possible; the store returns published
// posts among them, newest first, at most 3.
export const GALLERY_DRAWS = 6;
export const GALLERY_TILES_PER_LANGUAGE = 3;

/** A source of numbers in [0, 1), like Math.random. Injectable for tests. */
export type RandomSource = () => number;

export function drawIds(max: number, random: RandomSource, count = GALLERY_DRAWS): number[] {
  const upper = Math.max(0, Math.floor(max));
  return Array.from({ length: count }, () => Math.floor(random() * (upper + 1)));
}

/** mulberry32: a small seeded generator, so a fixed seed gives fixed draws. */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
