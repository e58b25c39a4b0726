import { existsSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
/**
 * The project folder (package.json, public/, build/): one level above `server/` when the sources run under
 * tsx, two above `build/server/` when the compiled server runs (docs/decisions/012).
 */
export const PROJECT_ROOT = existsSync(path.join(here, "../package.json")) ? path.resolve(here, "..") : path.resolve(here, "../..");
