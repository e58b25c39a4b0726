import { generateKeyPairSync, randomUUID } from "node:crypto";
import http from "node:http";
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from "oidc-provider";

// A real OpenID Connect provider (oidc-provider) on loopback, for the tests of signing in with one: discovery, keys,
// authorization with its own small login form, the code exchange, userinfo, all as a real provider does them.
// A test adds people with the claims it needs (email, email_verified, name) and signs in as one through the form.

export interface TestIdentity {
  /** What is typed into the provider's login form; also the subject (`sub`) of its tokens. */
  login: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Someone who can sign in at the provider; a fresh login unless given. */
  addIdentity(identity: Omit<TestIdentity, "login"> & { login?: string }): TestIdentity;
  close(): Promise<void>;
}

export interface TestOidcProviderOptions {
  /** 0: any free port (the issuer names the one it got). */
  port: number;
  /** The addresses the provider may send people back to (the shop's /api/auth/callback/<id>). */
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}

/** The provider's login page: one field, so a browser test signs in by typing a login and pressing "Sign in". */
function loginPage(uid: string, problem?: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Test ID: sign in</title></head><body>
<h1>Sign in to Test ID</h1>${problem ? `<p role="alert">${problem}</p>` : ""}
<form method="post" action="/interaction/${uid}"><label>Login <input name="login" autocomplete="username"></label>
<button type="submit">Sign in</button></form></body></html>`;
}

function readBody(request: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => resolve(new URLSearchParams(body)));
    request.on("error", reject);
  });
}

/** oidc-provider's storage, in memory for one test run (its own in-memory adapter warns on every start). */
function memoryAdapter() {
  const rows = new Map<string, { payload: AdapterPayload; expiresAt: number | undefined }>();
  return class MemoryStore implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      rows.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id: string) {
      const row = rows.get(this.key(id));
      if (!row || (row.expiresAt !== undefined && row.expiresAt < Date.now())) return undefined;
      return row.payload;
    }
    async findByUid(uid: string) {
      for (const [key, row] of rows) if (key.startsWith(`${this.model}:`) && row.payload.uid === uid) return row.payload;
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [key, row] of rows) if (key.startsWith(`${this.model}:`) && row.payload.userCode === userCode) return row.payload;
      return undefined;
    }
    async consume(id: string) {
      const row = rows.get(this.key(id));
      if (row) row.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      rows.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, row] of rows) if (row.payload.grantId === grantId) rows.delete(key);
    }
  };
}

export async function startTestOidcProvider({
  port,
  redirectUris,
  clientId = "plant-shop",
  clientSecret = `test-secret-${randomUUID()}`,
}: TestOidcProviderOptions): Promise<TestOidcProvider> {
  // Listening first: with port 0 the issuer's address is known only once the port is.
  let handle: http.RequestListener = (_request, response) => void response.writeHead(503).end();
  const server = http.createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const identities = new Map<string, TestIdentity>();
  const signingKey = { ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), kid: "test-key", alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomUUID()] },
    // Lifetimes set, so that the provider does not print a notice for each default it uses.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A first-party client: the person is never asked to consent, the scopes asked for are granted.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, sub) {
      const identity = identities.get(sub);
      if (!identity) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: identity.email, email_verified: identity.emailVerified, ...(identity.name ? { name: identity.name } : {}) }),
      };
    },
  });

  const callback = provider.callback();
  handle = (request, response) => {
    const interaction = /^\/interaction\/([^/?]+)/.exec(request.url ?? "");
    if (!interaction) {
      callback(request, response);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      if (request.method !== "POST") {
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(loginPage(details.uid));
        return;
      }
      const login = (await readBody(request)).get("login") ?? "";
      if (!identities.has(login)) {
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(loginPage(details.uid, "No such login."));
        return;
      }
      await provider.interactionFinished(request, response, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "text/plain" }).end(String(error));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    addIdentity(identity) {
      const full = { ...identity, login: identity.login ?? `person-${randomUUID().slice(0, 8)}` };
      identities.set(full.login, full);
      return full;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
