import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// Debian's nginx in front of the shop, for the tests that need a real proxy (https termination, several copies)
// and the bench that measures through one. Each nginx runs in a folder of its own, as its own master process.

export const NGINX = "/usr/sbin/nginx";

export interface Nginx {
  child: ChildProcess;
  /** Its folder: configuration, pid, temporary files; removed by stopNginx. */
  dir: string;
  output: () => string;
  exited: Promise<number | null>;
  /** Writes a new `http { … }` body, reloads nginx and waits until only workers with it are left. */
  reload(httpBody: string): Promise<void>;
}

/** The whole configuration around an `http` block's body: in the foreground, with every path in `dir`. */
function configFile(dir: string, httpBody: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${httpBody}
}
`;
}

/**
 * Starts nginx with the `http` block's body `httpBody(dir)` (given the folder, for files such as certificates kept
 * in it; `prepare` may write them first).
 */
export function startNginx(httpBody: (dir: string) => string, prepare: (dir: string) => void = () => {}): Nginx {
  // A missing proxy is a broken test machine, not a reason to skip: .ci/run installs nginx-light.
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install Debian's nginx-light (apt-get install nginx-light), as .ci/run does`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-nginx-"));
  // nginx's workers drop root and must reach their temp folders.
  chmodSync(dir, 0o755);
  prepare(dir);
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, configFile(dir, httpBody(dir)));
  const child = spawn(NGINX, ["-p", dir, "-e", "stderr", "-c", conf], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.on("error", (error) => {
      output += String(error);
      resolve(-1);
    });
  });
  /** nginx's worker processes now (the master's children). */
  const workers = () => {
    const pid = child.pid;
    if (!pid) return [];
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean);
  };
  return {
    child,
    dir,
    output: () => output,
    exited,
    async reload(body) {
      writeFileSync(conf, configFile(dir, body));
      const before = workers();
      if (child.pid) process.kill(child.pid, "SIGHUP");
      // Reloaded once new workers run and the old ones have finished their requests and exited: from then on every
      // request follows the new configuration. Polled against a deadline: the reload is nginx's, it says nothing.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const now = workers();
        if (now.length > 0 && !now.some((pid) => before.includes(pid))) return;
        if (Date.now() > deadline) throw new Error(`nginx did not reload within 30 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Until `healthStatus` (a GET of /healthz through nginx) answers 200, or nginx exits, or 30 s pass. */
export async function waitForNginx(nginx: Nginx, healthStatus: () => Promise<number | undefined>) {
  let exitCode: number | null | undefined;
  void nginx.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`nginx exited with ${exitCode}:\n${nginx.output()}`);
    if ((await healthStatus()) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not pass /healthz through within 30 s:\n${nginx.output()}`);
}

/** SIGQUIT (nginx's graceful stop) to the master, SIGKILL if it lingers; then its folder is removed. */
export async function stopNginx(nginx: Nginx) {
  if (nginx.child.exitCode === null && nginx.child.signalCode === null && nginx.child.pid) {
    process.kill(nginx.child.pid, "SIGQUIT");
    const killer = setTimeout(() => nginx.child.pid && process.kill(nginx.child.pid, "SIGKILL"), 10_000);
    await nginx.exited;
    clearTimeout(killer);
  }
  rmSync(nginx.dir, { recursive: true, force: true });
}
