// The environment of a shop server that a test starts: what the machine needs to run a program, plus the
// test's own settings, and nothing else from the caller's shell — a DATABASE_URL, SHIPPING_FEE_PAISE or SMTP_URL
// exported there must not change what the tests see (docs/decisions/017: CI that cannot pass by accident).

/**
 * The flags production runs node with (package.json's start and serve, the Dockerfile; tests/unit/server-env.test.ts
 * keeps them equal): 16 MB semi-spaces, written out so that the young generation stays big enough for signed-in
 * requests' objects to die in it (2 MB cost checkout a third more CPU; V8 shrinks it again within a minute idle); and
 * an old generation allowed to grow 30 % past what survived the last full collection instead of V8's up to 4x on a
 * machine with this much memory, 60-70 MB less under rendering load (docs/decisions/029-bounded-memory.md).
 */
export const PRODUCTION_NODE_FLAGS = ["--max-semi-space-size=16", "--heap-growing-percent=30"];

/** What a Node program needs from the machine; none of these is a shop setting. */
const MACHINE_VARIABLES = ["PATH", "HOME", "TMPDIR", "TEMP", "TMP", "TZ", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "USER", "LOGNAME", "SHELL", "TERM"];

/**
 * The machine's variables and `settings`. Every other variable of `inherited` is present with the value
 * `undefined`: Node's spawn leaves such a variable out, so the result also works where the spawner merges
 * process.env under it (Playwright's webServer does: `{ ...process.env, ...webServer.env }`).
 */
export function serverEnvironment(settings: Record<string, string | undefined>, inherited: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of Object.keys(inherited)) env[name] = undefined;
  for (const name of MACHINE_VARIABLES) if (inherited[name] !== undefined) env[name] = inherited[name];
  // Playwright adds these to its web server's environment; a server with colours in its logs is no help.
  env.FORCE_COLOR = undefined;
  env.DEBUG_COLORS = undefined;
  return { ...env, ...settings };
}
