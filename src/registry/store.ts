/**
 * `PFLOW_HOME/registry.json`: MCP virtual node entries and sync metadata (built-in nodes come from
 * code). Writes are atomic and keep one backup (`registry.json.bak`); a corrupt file is reported
 * with the backup offered, never silently emptied.
 */
import { PflowError } from "../core/errors.ts";
import { writeFileAtomic } from "../core/atomic.ts";
import { homePaths } from "../core/paths.ts";
import type { NodeInterface } from "../core/node_interface.ts";

export interface ServerSyncInfo {
  synced_at: string;
  tools: number;
  /** The last sync's failure, when the last good set was kept. */
  error?: string;
}

export interface RegistryFile {
  version: 1;
  /** MCP entries by node type (`mcp-<server>-<tool>`). */
  nodes: Record<string, NodeInterface>;
  servers: Record<string, ServerSyncInfo>;
}

export const emptyRegistryFile = (): RegistryFile => ({ version: 1, nodes: {}, servers: {} });

export async function loadRegistryFile(home: string): Promise<RegistryFile> {
  const text = await readRegistryText(home);
  return text === undefined
    ? emptyRegistryFile()
    : parseRegistryText(text, homePaths(home).registry);
}

/** The raw text of registry.json, or undefined when there is none. */
export async function readRegistryText(home: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(homePaths(home).registry);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** @throws PflowError `parse` naming the backup to restore. */
export function parseRegistryText(text: string, path: string): RegistryFile {
  try {
    const data = JSON.parse(text) as RegistryFile;
    if (typeof data !== "object" || data === null || typeof data.nodes !== "object") {
      throw new Error("missing 'nodes'");
    }
    return { version: 1, nodes: data.nodes ?? {}, servers: data.servers ?? {} };
  } catch (err) {
    throw new PflowError("parse", `registry.json is corrupt: ${(err as Error).message}`, {
      suggestion:
        `Restore the backup (cp ${path}.bak ${path}), or run 'pflow mcp sync --all' after removing it`,
      details: { path },
    });
  }
}

/** Saves atomically; the previous file becomes `registry.json.bak`. */
export async function saveRegistryFile(home: string, data: RegistryFile): Promise<void> {
  const path = homePaths(home).registry;
  try {
    const previous = await Deno.readTextFile(path);
    await writeFileAtomic(`${path}.bak`, previous);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  // Compact: a registry of thousands of tools loads on every command, and whitespace costs parse time.
  await writeFileAtomic(path, JSON.stringify(data) + "\n");
}
