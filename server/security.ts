import type { NextFunction, Request, Response } from "express";

/** Content-Security-Policy: scripts only from us or carrying this response's nonce. */
export function contentSecurityPolicy(nonce: string | null): string {
  return [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self'",
    // React sets style attributes; no stylesheet comes from elsewhere.
    "style-src 'self' 'unsafe-inline'",
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
export function securityHeaders(publicUrl: string | undefined) {
  const httpsSite = publicUrl?.startsWith("https:") ?? false;
  const headers = {
    "Content-Security-Policy": contentSecurityPolicy(null),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Permitted-Cross-Domain-Policies": "none",
  };
  return (req: Request, res: Response, next: NextFunction) => {
    res.set(headers);
    if (httpsSite || req.secure) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
