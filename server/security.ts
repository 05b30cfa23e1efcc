import type { NextFunction, Request, Response } from "express";
import { firstSegmentsOf } from "#app/route-table.ts";

/**
 * Content-Security-Policy: scripts and styles only from us, or the inline
 * scripts and <style> blocks the page was rendered with, allowed by their
 * hashes (script-hashes.ts). No 'unsafe-inline' and no 'unsafe-hashes': a
 * style= attribute never applies, and the site sets none (decision 046).
 */
export function contentSecurityPolicy(
  scriptHashes: readonly string[] = [],
  styleHashes: readonly string[] = [],
  frameAncestors = "'none'",
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(" "),
    ["style-src 'self'", ...styleHashes].join(" "),
    // Imported posts may point their images at their old host.
    "img-src 'self' data: https:",
    "font-src 'self'",
    // A post's recording may live on another host (decision 052).
    "media-src 'self' https:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

// ---- Embeds (decision 063) -----------------------------------------------
// Only the embed pages (/embed/{language}/{slug}, and their 404) may be framed,
// by any site: their CSP says `frame-ancestors *`, they go out without
// X-Frame-Options, and Cross-Origin-Resource-Policy lets a site with COEP
// frame them. Every other page keeps `frame-ancestors 'none'` and DENY.

/** The addresses rendered as frameable pages (render.ts): under the routes app/route-table.ts marks `frameable` (/embed/…). */
export const FRAMEABLE_PATH = new RegExp(`^/(?:${firstSegmentsOf((route) => route.frameable)})/`);
/** Who may frame an embed page: any http(s) page. */
export const EMBED_FRAME_ANCESTORS = "*";

/** The headers an embed page goes out with: `base` (name, value…) without X-Frame-Options, CORP cross-origin. */
export function frameableHeaders(
  base: readonly string[],
  res: { removeHeader(name: string): void },
): string[] {
  res.removeHeader("X-Frame-Options");
  const headers: string[] = [];
  for (let i = 0; i + 1 < base.length; i += 2) {
    const name = base[i] as string;
    if (name === "X-Frame-Options" || name === "Cross-Origin-Resource-Policy") continue;
    headers.push(name, base[i + 1] as string);
  }
  headers.push("Cross-Origin-Resource-Policy", "cross-origin");
  return headers;
}

/**
 * A raster image (JPEG, PNG, WebP, AVIF, GIF, icon; not SVG) goes out without
 * a Content-Security-Policy: opened on its own, the browser shows it in an
 * image document that it styles inline itself, which a page's policy blocks
 * (a console violation on every share image a visitor opens). Such a
 * document holds nothing of ours or of a visitor's to run or style, and
 * nosniff keeps it an image.
 */
export function withoutPolicyForRasterImage(
  res: { removeHeader(name: string): void },
  contentType: string | undefined,
) {
  if (contentType && /^image\/(?!svg)/i.test(contentType)) res.removeHeader("Content-Security-Policy");
}

const RASTER_IMAGE_FILE = /\.(?:jpe?g|png|webp|avif|gif|ico)$/i;

/** express.static's setHeaders: raster image files without the policy (withoutPolicyForRasterImage). */
export function staticFileHeaders(res: { removeHeader(name: string): void }, file: string) {
  if (RASTER_IMAGE_FILE.test(file)) res.removeHeader("Content-Security-Policy");
}

/**
 * Headers on every response. HSTS when the site is https: PUBLIC_URL says so,
 * or the request came over TLS (req.secure reads X-Forwarded-Proto only under
 * TRUST_PROXY).
 */
export const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Permitted-Cross-Domain-Policies": "none",
} as const;

export const HSTS = ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as const;

export function securityHeaders(publicUrl: string | undefined) {
  const httpsSite = publicUrl?.startsWith("https:") ?? false;
  const headers = { ...SECURITY_HEADERS, "Content-Security-Policy": contentSecurityPolicy() };
  return (req: Request, res: Response, next: NextFunction) => {
    res.set(headers);
    if (httpsSite || req.secure) res.set(...HSTS);
    next();
  };
}
