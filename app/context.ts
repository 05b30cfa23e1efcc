import { createContext } from "react-router";
import type { RandomSource } from "#app/content/sampling.ts";
import type { ContentStore } from "#app/data/store.ts";

/** Set once per request at the server boundary (server/app.ts). */
export const storeContext = createContext<ContentStore>();
/** The gallery's random source: Math.random, or a seeded one in tests. */
export const randomContext = createContext<RandomSource>(Math.random);
/** The site's public origin (PUBLIC_URL, else the request's own), for absolute links. */
export const originContext = createContext<string>("http://localhost:3000");
/** This response's CSP nonce, for the inline scripts React Router emits. */
export const nonceContext = createContext<string>("");
/**
 * The request id: `id` goes in the logs; `shown` is what pages display (a
 * placeholder the server swaps for the id, so cached pages stay shareable).
 */
export const requestIdContext = createContext<{ id: string; shown: string }>({ id: "", shown: "" });
