import type { Services } from "./create-services.ts";
import type { PlatformEnv, PlatformVariables } from "./platform/http/http-env.ts";

/** What every request handler can read from its Hono context: the platform's variables and the composed services. */
export interface AppEnv extends PlatformEnv {
  Variables: PlatformVariables & { services: Services };
}
