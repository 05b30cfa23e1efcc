import { currentSite } from "#app/site.ts";

/** The web app manifest, from the running identity (SITE_CONFIG, decision 055). */
export function loader() {
  const siteConfig = currentSite();
  const manifest = {
    name: `${siteConfig.name} · ${siteConfig.tagline}`,
    short_name: siteConfig.name,
    description: siteConfig.about.teaser,
    lang: "en",
    // The app's identity (a later start_url change keeps installs one app).
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: siteConfig.colours.background,
    // The manifest holds one colour; the pages' theme-color meta tags give the
    // light and dark ones (root.tsx), which an installed app follows.
    theme_color: siteConfig.colours.theme,
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest, null, 2), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
