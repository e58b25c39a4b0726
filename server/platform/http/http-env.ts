import type { Context } from "hono";
import type { HttpBindings } from "@hono/node-server";
import type { Logger } from "pino";
import type { SessionCaller, SessionOutcome, SessionUser } from "../session-user.ts";
import type { StoredAnswer } from "./response-cache.ts";
import type { SessionCookies } from "./session-cookie.ts";

/** Looks up who holds a session credential, and what (if anything) to tell their browser about the session. */
export type SessionLookup = (caller: SessionCaller) => Promise<{ user: SessionUser | null; session: SessionOutcome }>;

/**
 * What the platform's HTTP code sets and reads on a request. The shop's routers run on PlatformEnv as it is: the
 * services are handed to the routers that call them, never put on the request (decision 025).
 */
export interface PlatformVariables {
  log: Logger;
  requestId: string;
  secureHeadersNonce?: string;
  /** Set by a response cache for an answer it stores or replays: the policy names these scripts, not the nonce. */
  cspScriptHashes?: string[];
  /**
   * Set by sharedPages() for a signed-in shopper's request of a page everyone sees alike: it is rendered without the
   * person (and kept), and the person's parts are filled in afterwards.
   */
  sharedPage?: boolean;
  /** Set by a response cache when it stores this answer, for the front cache to record the headers sent with it. */
  storedAnswer?: StoredAnswer;
  /** Set by resolveClientIp() for every request. */
  clientIp?: string | null;
  /** Set by sessions(): how this request's session is read, looked up and written. */
  sessions?: { cookies: SessionCookies; lookUp: SessionLookup };
  /** Set by currentUser() on first use; undefined until then. */
  user?: SessionUser | null;
  /** What that lookup did to the session (a slid session is issued again), for sessions() to pass on. */
  sessionOutcome?: SessionOutcome;
}

export interface PlatformEnv {
  Bindings: Partial<HttpBindings>;
  Variables: PlatformVariables;
}

/**
 * The platform's view of a request's context. Any application environment that extends PlatformEnv has every
 * platform variable, but Hono's Context is invariant in its environment (through `set`), so TypeScript cannot see
 * that a Context<E> of such an environment is usable as a Context<PlatformEnv>: this one cast says it, in one place.
 */
export function platformContext<E extends PlatformEnv>(c: Context<E>): Context<PlatformEnv> {
  return c as unknown as Context<PlatformEnv>;
}
