/**
 * Runs CLI commands in-process for tests: a CliIO whose stdout/stderr are captured, with its own
 * PFLOW_HOME and cwd. `main([...args], io)` then behaves as the real binary would.
 */
import type { CliIO } from "../src/cli/io.ts";
import { main } from "../src/cli/main.ts";

export interface CapturedIO {
  io: CliIO;
  out(): string;
  err(): string;
}

/** Runs `fn` with a fresh temp dir (PFLOW_HOME, and the cwd where tests want one), removed after. */
export async function withHome(fn: (home: string) => Promise<void>, prefix = "pflow-test-") {
  const home = await Deno.makeTempDir({ prefix });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** `pflow ARGV…` in-process with captured output; the user's cwd is `cwd` (default: home). */
export async function runCli(argv: string[], home: string, cwd: string = home) {
  const c = captureIO(home, cwd);
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

/** `pflow ARGV…` in-process, PFLOW_HOME and cwd both `home`. */
export const pflowIn = (home: string, ...argv: string[]) => runCli(argv, home);

export function captureIO(home: string, cwd: string = home, stdin?: string): CapturedIO {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (t) => void out.push(t.endsWith("\n") ? t : t + "\n"),
    stderr: (t) => void err.push(t.endsWith("\n") ? t : t + "\n"),
    home,
    cwd,
    verbose: false,
    signal: new AbortController().signal,
    readStdin: () => Promise.resolve(stdin),
  };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

/** A hello-world workflow in .pflow.md, with one input. */
export const HELLO_MD = `# Hello world

Says hello to someone.

## Inputs

### who

The person to greet.

- type: string

## Steps

### greet

Print the greeting.

- type: shell
- command: echo "hello \${who}"

## Outputs

### text

The greeting.

- source: \${greet.stdout}
`;

/** Every file under `dir`, as paths relative to it (sorted). */
export async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (d: string, prefix: string) => {
    for await (const e of Deno.readDir(d)) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory) await walk(`${d}/${e.name}`, rel);
      else found.push(rel);
    }
  };
  await walk(dir, "");
  return found.sort();
}
