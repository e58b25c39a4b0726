// The part of oidc-provider's API that tests/support/oidc-provider.ts uses (the package ships no types).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AdapterPayload = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      provider: Provider;
    };
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    adapter: new (model: string) => Adapter;
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    features: Record<string, { enabled: boolean }>;
    interactions: { url(ctx: KoaContextWithOIDC, interaction: { uid: string }): string };
    ttl: Record<string, number>;
    loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined>;
    findAccount(ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: new (properties: { clientId: string; accountId: string }) => Grant;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<{ uid: string }>;
    interactionFinished(request: IncomingMessage, response: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
