import { config } from "zod";

// zod compiles object parsers with `new Function` unless told not to, and first probes whether it may; under
// the shop's Content-Security-Policy (no 'unsafe-eval', decision 004) that probe is reported as a violation.
// Imported in the browser only, before any schema is built (use-form-errors.ts): the server keeps the
// compiled parsers.
config({ jitless: true });
