import { redirect } from "react-router";
import type { Route } from "./+types/shortcut";

// Addresses a visitor gets by trimming a page's URL (/english/some-quote →
// /english, /tag/love → /tag) lead to the page they were after, not a 404.
const TARGETS: Record<string, string> = {
  "/english": "/english/home",
  "/hindi": "/hindi/home",
  "/marathi": "/marathi/home",
  "/tag": "/tags",
  "/category": "/tags",
};

export function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  throw redirect(TARGETS[path] ?? "/", 301);
}
