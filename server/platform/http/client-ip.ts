import type http from "node:http";
import { isIP } from "node:net";
import { normalizeIP } from "@better-auth/core/utils/ip";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { platformContext, type PlatformEnv } from "./http-env.ts";

/**
 * The address a request comes from, for rate limits and the contact log. Without proxies it is the
 * connection's peer. Behind `trustedProxies` proxies (TRUST_PROXY), each appends the address it saw to
 * X-Forwarded-For, so the client is the entry that many places from the right; anything further left was
 * written by the client itself and is not believed.
 *
 * An IPv6 client is its /64 network, written out in full (Better Auth's `normalizeIP`, the rule its own limits
 * use): one subscriber is given at least a /64 and may send from any address in it, so counting each address
 * apart let one network make unlimited guesses. An IPv4-mapped address (`::ffff:…`) is its IPv4 address.
 */
export function forwardedClientIp(peer: string | null, forwardedFor: string | undefined, trustedProxies: number): string | null {
  if (!peer) return null;
  if (trustedProxies === 0) return clientOf(peer);
  const hops = (forwardedFor ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  const candidate = hops[hops.length - trustedProxies];
  return clientOf(candidate && isIP(candidate) ? candidate : peer);
}

/**
 * An IPv4 address as it is; only an IPv6 one goes through normalizeIP, which checks its input with zod: on every
 * request (the front cache's hits too) that cost the cached API rows a fifth of their throughput.
 */
function clientOf(address: string): string {
  return isIP(address) === 6 ? normalizeIP(address) : address;
}

/** Where a connection keeps its client's address (see connectionClientIp). */
const CLIENT_IP = Symbol("clientIp");

/**
 * The client address of a request answered before Hono (the fronts in front-cache.ts and front-shared-pages.ts).
 * Without proxies it is the connection's, so it is worked out once per connection, not per request.
 */
export function connectionClientIp(req: http.IncomingMessage, trustedProxies: number): string | null {
  if (trustedProxies > 0) {
    const forwardedFor = req.headers["x-forwarded-for"];
    return forwardedClientIp(req.socket.remoteAddress ?? null, Array.isArray(forwardedFor) ? forwardedFor.join(", ") : forwardedFor, trustedProxies);
  }
  const socket = req.socket as http.IncomingMessage["socket"] & { [CLIENT_IP]?: string | null };
  if (socket[CLIENT_IP] === undefined) socket[CLIENT_IP] = forwardedClientIp(socket.remoteAddress ?? null, undefined, 0);
  return socket[CLIENT_IP];
}

/** Works out the request's client address once (see forwardedClientIp). */
export function resolveClientIp(trustedProxies: number) {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    const peer = c.env?.incoming?.socket.remoteAddress ?? null;
    c.set("clientIp", forwardedClientIp(peer, c.req.header("x-forwarded-for"), trustedProxies));
    await next();
  });
}

/** The client address resolveClientIp found (in-process test requests have none). */
export function clientIp<E extends PlatformEnv>(c: Context<E>): string | null {
  return platformContext(c).get("clientIp") ?? null;
}
