// How the site knows its own origin, for canonical links, feeds, sitemaps and
// share links (docs/decisions/034-safe-to-face-the-internet.md). A Host
// header is the visitor's to write: it never reaches a page another visitor
// sees. With PUBLIC_URL every page carries that origin whatever the Host says;
// without it only loopback hosts are served (a developer's machine), each page
// cached under the origin it was made for.
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * The origin for a request's pages, from its Host header and whether it came
 * over https, or null when this site is not served at that Host.
 */
export type OriginOf = (host: string | undefined, https: boolean) => string | null;

export function originPolicy(publicUrl: string | undefined): OriginOf {
  if (publicUrl) {
    const origin = new URL(publicUrl).origin;
    return () => origin;
  }
  return (host = "", https) => {
    if (!LOOPBACK_HOST.test(host)) return null;
    return `${https ? "https" : "http"}://${host.toLowerCase()}`;
  };
}

/** What start-up says about the origin, once. */
export function describeOrigin(publicUrl: string | undefined, port: number): string {
  if (publicUrl)
    return `pages link to ${new URL(publicUrl).origin} (PUBLIC_URL), whatever Host a request names`;
  return `PUBLIC_URL is not set: serving loopback addresses only (http://localhost:${port}, http://127.0.0.1:${port}); requests for any other host get 421. Set PUBLIC_URL to the site's public address (e.g. https://quotes.example) to serve visitors`;
}
