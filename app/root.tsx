import { useEffect, useRef } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { InlineStyles } from "#app/components/inline-styles.tsx";
import { useNonce } from "#app/components/nonce.tsx";
import { useServiceWorker } from "#app/components/service-worker.ts";
import { SiteFooter } from "#app/components/site-footer.tsx";
import { SiteHeader } from "#app/components/site-header.tsx";
import { TextSizeScript } from "#app/components/text-size-script.tsx";
import { useSite } from "#app/components/use-site.ts";
import { yearIn } from "#app/content/daily.ts";
import { labelsFor } from "#app/content/labels.ts";
import {
  addressLanguage,
  isLanguage,
  LANG_TAG,
  LANGUAGE_LABEL,
  LANGUAGES,
  type Language,
  withLanguage,
} from "#app/content/languages.ts";
import { requestIdContext } from "#app/context.ts";
import { currentSite, publicSite } from "#app/site.ts";
import type { Route } from "./+types/root";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/images/logo.svg", type: "image/svg+xml" },
];

export function loader({ context }: Route.LoaderArgs) {
  // The running identity (SITE_CONFIG, decision 055): what the frame shows of
  // it travels here, so the browser's bundle holds none of it.
  const site = currentSite();
  const year = yearIn(new Date(), site.timeZone);
  return data({ year, requestId: context.get(requestIdContext).shown, site: publicSite(site) });
}

/** The RSS feeds, one per language, for <link rel="alternate"> discovery, titled with the site's name. */
function FeedLinks({ name }: { name: string }) {
  return LANGUAGES.map((language) => (
    <link
      key={language}
      rel="alternate"
      type="application/rss+xml"
      title={`${name} · ${LANGUAGE_LABEL[language]}`}
      href={`/${language}/feed.xml`}
    />
  ));
}

/**
 * The page's language: the deepest route whose loader names one
 * (`pageLanguage`); on an error page, which has no loader data, the language
 * its address starts with (/hindi/…, /marathi/…); on a page of no language,
 * the one its address names (?lang=, decision 067). `switchable`: the page
 * has no language of its own, so the header offers the three.
 */
function usePageLanguage(): { language: Language; switchable: boolean } {
  const matches = useMatches();
  const { pathname, search } = useLocation();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]?.loaderData as { pageLanguage?: unknown; switchable?: unknown } | undefined;
    if (isLanguage(data?.pageLanguage))
      return { language: data.pageLanguage, switchable: data.switchable === true };
  }
  // An error page (a 404): its address's language, or the one its ?lang= names.
  const first = pathname.split("/")[1];
  if (isLanguage(first)) return { language: first, switchable: false };
  return { language: addressLanguage(search), switchable: true };
}

/**
 * After a client-side navigation, focus moves to the new page's heading (as
 * accessible routers do): a screen reader announces it, and the next Tab
 * starts from the new content, not from the link that was clicked. Not on
 * the first view, where focus is the browser's to place.
 */
function useFocusOnNavigation() {
  const { pathname, search } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const target = document.querySelector<HTMLElement>("main h1") ?? document.getElementById("main");
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, [pathname, search]);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { language, switchable } = usePageLanguage();
  const labels = labelsFor(language);
  const rootData = useRouteLoaderData<typeof loader>("root");
  const site = useSite();
  const nonce = useNonce();
  // Says the page has hydrated (the browser tests wait for it; nothing styles it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  useFocusOnNavigation();
  useServiceWorker();
  return (
    <html lang={LANG_TAG[language]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content={site.colours.theme} media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content={site.colours.themeDark} media="(prefers-color-scheme: dark)" />
        {/* The service worker reads the site's day from it (decision 055). */}
        <meta name="sukti:time-zone" content={site.timeZone} />
        <Meta />
        <TextSizeScript />
        <InlineStyles />
        <Links />
        <FeedLinks name={site.name} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {labels.skipToContent}
        </a>
        <SiteHeader labels={labels} language={language} switchable={switchable} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter year={rootData?.year ?? new Date().getFullYear()} labels={labels} language={language} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const requestId = useRouteLoaderData<typeof loader>("root")?.requestId;
  const site = useSite();
  const { language } = usePageLanguage();
  const labels = labelsFor(language);
  if (!notFound && import.meta.env.DEV) console.error(error);
  const title = notFound ? labels.notFoundTitle : labels.errorTitle;
  return (
    <section className="error-page">
      <title>{`${title} · ${site.name}`}</title>
      <h1>{title}</h1>
      <p>{notFound ? labels.notFoundText : labels.errorText}</p>
      {!notFound && requestId ? (
        <p className="request-id">
          {labels.reference}: <code>{requestId}</code>
        </p>
      ) : null}
      <p>
        <a href={withLanguage("/", language)}>{labels.goHome}</a>
      </p>
    </section>
  );
}
