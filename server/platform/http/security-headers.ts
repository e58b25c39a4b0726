import { NONCE, secureHeaders } from "hono/secure-headers";

/**
 * Security headers for every response. Scripts run only from our origin or with this response's nonce
 * (React Router's inline hydration scripts carry it); see docs/decisions/004-content-security-policy.md.
 */
export function securityHeaders({ dev, https }: { dev: boolean; https: boolean }) {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // Vite's dev client evaluates modules and opens a WebSocket; production needs neither.
      scriptSrc: dev ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : ["'self'", NONCE],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'"],
      connectSrc: dev ? ["'self'", "ws:", "wss:"] : ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    strictTransportSecurity: https ? "max-age=31536000; includeSubDomains" : false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}
