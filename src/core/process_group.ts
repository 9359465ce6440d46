/**
 * Signalling a child and everything it started. Children are spawned `detached` (a new session),
 * so each leads its own process group and `kill(-pgid)` reaches the whole group — but only with
 * unrestricted --allow-run: under an allowlist Deno refuses it, and the child itself is signalled
 * instead (the shell node's trap and an MCP server's stdin close take it from there).
 */
export function signalProcessGroup(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    Deno.kill(-child.pid, signal);
    return;
  } catch {
    // Refused, or the group is gone: fall back to the child.
  }
  try {
    child.kill(signal);
  } catch {
    // Already exited.
  }
}
