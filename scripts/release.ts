/**
 * Release builds: one `deno compile` per target (linux x64/arm64, macOS x64/arm64, windows x64)
 * into dist/, named `pflow-<version>-<target>[.exe]`, plus `dist/SHA256SUMS` in the format
 * `sha256sum -c` reads. The binaries get exactly the permission flags of the `compile` task in
 * deno.json (the one place they are written), so a release behaves like `deno task compile`.
 * `deno compile` downloads each target's runtime: this needs the internet.
 *
 * Usage: deno task release [--target T]… [--dry-run]
 * Needs --allow-read, --allow-write=dist, --allow-run (deno itself).
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readExampleFiles, renderExamplesModule } from "./embed_examples.ts";
import { taskPermissionFlags } from "./permission_flags.ts";

export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

const root = fileURLToPath(new URL("..", import.meta.url));

/** The `--allow-*` flags of deno.json's `compile` task: the release permission profile. */
export function compilePermissionFlags(configPath?: string): string[] {
  return taskPermissionFlags("compile", configPath);
}

/** The `deno compile` arguments for one target. */
export function compileArgs(target: string, version: string, flags: string[]): string[] {
  const exe = target.includes("windows") ? ".exe" : "";
  return [
    "compile",
    ...flags,
    "--target",
    target,
    "--output",
    join(root, "dist", `pflow-${version}-${target}${exe}`),
    join(root, "main.ts"),
  ];
}

async function sha256Hex(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Fails when src/examples.ts no longer matches examples/: a binary must carry the real ones. */
async function checkEmbeddedExamples(): Promise<void> {
  const expected = renderExamplesModule(await readExampleFiles());
  const actual = await Deno.readTextFile(join(root, "src", "examples.ts"));
  if (expected !== actual) {
    throw new Error(
      "src/examples.ts is out of date with examples/: run " +
        "'deno run --allow-read --allow-write scripts/embed_examples.ts' first",
    );
  }
}

async function main(args: string[]): Promise<number> {
  const dryRun = args.includes("--dry-run");
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--target") targets.push(args[++i] ?? "");
    else if (args[i].startsWith("--target=")) targets.push(args[i].slice("--target=".length));
    else if (args[i] !== "--dry-run") {
      console.error(`Unknown argument '${args[i]}'. Usage: release.ts [--target T]… [--dry-run]`);
      return 2;
    }
  }
  for (const t of targets) {
    if (!(TARGETS as readonly string[]).includes(t)) {
      console.error(`Unknown target '${t}'. Targets: ${TARGETS.join(", ")}`);
      return 2;
    }
  }
  await checkEmbeddedExamples();
  const { version } = JSON.parse(await Deno.readTextFile(join(root, "deno.json"))) as {
    version: string;
  };
  const flags = compilePermissionFlags();
  const outputs: string[] = [];
  for (const target of targets.length ? targets : TARGETS) {
    const compile = compileArgs(target, version, flags);
    console.error(`deno ${compile.join(" ")}`);
    if (dryRun) continue;
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: compile,
      stdout: "inherit",
      stderr: "inherit",
    })
      .output();
    if (code !== 0) {
      console.error(
        `deno compile failed for ${target} (exit ${code}); it needs the internet to fetch the runtime`,
      );
      return 1;
    }
    outputs.push(compile[compile.indexOf("--output") + 1]);
  }
  if (dryRun) return 0;
  const lines: string[] = [];
  for (const path of outputs) lines.push(`${await sha256Hex(path)}  ${basename(path)}`);
  const sums = join(root, "dist", "SHA256SUMS");
  await Deno.writeTextFile(sums, lines.join("\n") + "\n");
  console.error(`wrote ${outputs.length} binaries and ${sums}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
