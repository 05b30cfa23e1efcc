// The same files app.css names (Vite gives both one hashed URL): preloading
// them lets Devanagari pages paint their text in the right font sooner.
import devanagari400 from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2?url";
import devanagari700 from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2?url";

export function devanagariFontLinks() {
  return [devanagari400, devanagari700].map((href) => ({
    rel: "preload",
    as: "font",
    type: "font/woff2",
    href,
    crossOrigin: "anonymous" as const,
  }));
}
