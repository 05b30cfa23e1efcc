import type { NextFunction, Request, Response } from "express";

/**
 * Content-Security-Policy: scripts and styles only from us, or the inline
 * scripts and <style> blocks the page was rendered with, allowed by their
 * hashes (script-hashes.ts). No 'unsafe-inline' and no 'unsafe-hashes': a
 * style= attribute never applies, and the site sets none (decision 046).
 */
export function contentSecurityPolicy(
  scriptHashes: readonly string[] = [],
  styleHashes: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(" "),
    ["style-src 'self'", ...styleHashes].join(" "),
    // Imported posts may point their images at their old host.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
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
