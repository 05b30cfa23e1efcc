import { useEffect, useState } from "react";
import type { ReadingLabels } from "#app/content/reading-labels.ts";

export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied or unavailable: fall back below.
  }
  // Fallback for browsers without the Clipboard API (or without permission).
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/**
 * A copy button's state: whether the page has hydrated (the button shows only
 * then), and what the last copy did, said for four seconds.
 */
export function useCopyStatus() {
  const [hydrated, setHydrated] = useState(false);
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (status === "idle") return;
    const timer = setTimeout(() => setStatus("idle"), 4000);
    return () => clearTimeout(timer);
  }, [status]);
  return { hydrated, status, setStatus };
}

/** Tells the site a copy or share button was used (decision 056): the post, the button, nothing about the reader. */
function beacon(event: string, url: string) {
  try {
    const [, language, slug = ""] = new URL(url).pathname.split("/");
    const body = JSON.stringify({ event, language, slug: decodeURIComponent(slug) });
    navigator.sendBeacon("/stats/beacon", new Blob([body], { type: "application/json" }));
  } catch {
    // No beacon (an old browser, a blocker): the click still works.
  }
}

/**
 * Share links work without JavaScript; the copy buttons appear once the page
 * has hydrated, since they need it.
 */
export function ShareActions({
  url,
  title,
  text,
  labels,
  download,
  byline = "",
}: {
  /** Who said it, for the message a share link prefills ("" when unknown). */
  byline?: string;
  url: string;
  title: string;
  /** "Download image": a plain link, so it works without JavaScript. */
  download?: React.ReactNode;
  /** The quote as plain text, for "copy text". */
  text: string;
  labels: ReadingLabels;
}) {
  const { hydrated, status, setStatus } = useCopyStatus();

  const copy = async (value: string, event: string) => {
    beacon(event, url);
    setStatus((await copyToClipboard(value)) ? "copied" : "failed");
  };
  const said = byline ? `${title} — ${byline}` : title;
  const message = `${said}\n${url}`;
  const links = [
    { network: "WhatsApp", href: `https://wa.me/?text=${encodeURIComponent(message)}` },
    { network: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
    {
      network: "X",
      href: `https://x.com/intent/post?text=${encodeURIComponent(said)}&url=${encodeURIComponent(url)}`,
    },
  ];

  return (
    <section className="share" aria-label={labels.share}>
      <h2 className="share-title">{labels.share}</h2>
      <ul className="share-list">
        {links.map((link) => (
          <li key={link.network}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              className="share-button"
              lang="en"
              onClick={() => beacon(`share-${link.network.toLowerCase()}`, url)}
            >
              {link.network}
            </a>
          </li>
        ))}
        {download ? <li>{download}</li> : null}
        {hydrated ? (
          <>
            <li>
              <button type="button" className="share-button" onClick={() => copy(url, "copy-link")}>
                {labels.copyLink}
              </button>
            </li>
            <li>
              <button
                type="button"
                className="share-button"
                onClick={() => copy(`${text}\n\n${url}`, "copy-text")}
              >
                {labels.copyText}
              </button>
            </li>
          </>
        ) : null}
      </ul>
      <p className="share-status" role="status" aria-live="polite">
        {status === "copied" ? labels.copied : status === "failed" ? labels.copyFailed : ""}
      </p>
    </section>
  );
}
