import { createContext } from "react-router";
import type { RandomSource } from "#app/content/sampling.ts";
import type { ContentStore } from "#app/data/store.ts";

/** Set once per request at the server boundary (server/render.ts). */
export const storeContext = createContext<ContentStore>();
/** The gallery's random source: Math.random, or a seeded one in tests. */
export const randomContext = createContext<RandomSource>(Math.random);
/** The site's public origin (PUBLIC_URL, else the request's own), for absolute links. */
export const originContext = createContext<string>("http://localhost:3000");
/**
 * Where the server keeps the files it makes (SHARE_IMAGE_DIR, IMAGE_VARIANT_DIR),
 * from the parsed environment (server/start.ts); relative to the working directory.
 */
export const fileCacheContext = createContext<{
  shareImages: string;
  imageVariants: string;
  audio?: string;
  /** SYNCED_IMAGE_DIR: featured images `sukti sync` downloaded (decision 053). */
  syncedImages?: string;
}>({
  shareImages: "data/share-images",
  imageVariants: "data/image-variants",
  audio: "public/audio",
});
/** The server's logger (LOG_LEVEL), for errors met while rendering (entry.server.tsx). */
export const loggerContext = createContext<{
  error(msg: string, fields?: Record<string, unknown>): void;
} | null>(null);
/** Set only when the home is rendered as the fast home's template (server/home-page.ts). */
export const gallerySlotContext = createContext<string | null>(null);
/**
 * A secret token for this render, put in a nonce attribute on the inline
 * scripts React Router and our components emit. The server takes it out again
 * and allows exactly those scripts by their hashes (server/script-hashes.ts).
 */
export const nonceContext = createContext<string>("");
/**
 * The request id: `id` goes in the logs; `shown` is what pages display (a
 * placeholder the server swaps for the id, so cached pages stay shareable).
 */
export const requestIdContext = createContext<{ id: string; shown: string }>({ id: "", shown: "" });
