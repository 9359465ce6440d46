/** Path resolution for file-touching nodes: `~` expands to HOME, relative paths resolve against the user's cwd. */
import { isAbsolute, resolve } from "node:path";

/** The absolute path `path` names, seen from `cwd`. Needs --allow-env=HOME only for `~` paths. */
export function resolvePath(cwd: string, path: string): string {
  if (path === "~" || path.startsWith("~/")) {
    const home = Deno.env.get("HOME");
    if (home) return resolve(home, path.slice(2));
  }
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}
