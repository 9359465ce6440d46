/**
 * The one registry view: built-in node interfaces (from code) merged with the MCP entries of
 * `registry.json`. Validation, the executor, search and the MCP server all read it.
 */
import type { InterfaceLookup, NodeInterface } from "../core/node_interface.ts";
import type { NodeImpl } from "../nodes/types.ts";
import { BUILTIN_NODES } from "../nodes/index.ts";
import { mcpNode } from "../nodes/mcp.ts";
import { homePaths } from "../core/paths.ts";
import {
  emptyRegistryFile,
  parseRegistryText,
  readRegistryText,
  type RegistryFile,
} from "./store.ts";

const BUILTINS = new Map<string, NodeImpl>(BUILTIN_NODES.map((n) => [n.interface.type, n]));

/** Types are ASCII (`[a-z0-9-]`): a plain comparison sorts them, much faster than localeCompare. */
const byType = (a: NodeInterface, b: NodeInterface) =>
  a.type < b.type ? -1 : a.type > b.type ? 1 : 0;

/** The last registry parsed per file, keyed by the file's mtime, size and inode. */
const lastLoaded = new Map<string, { key: string; registry: Registry }>();

export class Registry {
  readonly file: RegistryFile;
  /** Verbatim MCP spellings (`mcp-github-create_issue`) → node type (`mcp-github-create-issue`). */
  readonly #aliases = new Map<string, string>();
  readonly #listed = new Map<boolean, readonly NodeInterface[]>();

  constructor(file: RegistryFile = emptyRegistryFile()) {
    this.file = file;
    for (const [type, entry] of Object.entries(file.nodes)) {
      if (entry.mcp) this.#aliases.set(`mcp-${entry.mcp.server}-${entry.mcp.tool}`, type);
    }
  }

  /**
   * Reads `registry.json` under `home` (throws PflowError "parse" when it is corrupt). The file
   * is stat'ed every time, so edits are always seen (a sync replaces it, which changes its inode;
   * an edit changes its mtime or size); while it is unchanged the parsed registry is reused, as a
   * long-lived `mcp serve` would otherwise re-read and re-parse thousands of entries on every
   * request. A Registry is never mutated, so sharing it is safe.
   */
  static async load(home: string): Promise<Registry> {
    const path = homePaths(home).registry;
    let key: string;
    try {
      const st = await Deno.stat(path);
      key = `${st.mtime?.getTime()}:${st.size}:${st.ino}`;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return new Registry();
      throw err;
    }
    const last = lastLoaded.get(path);
    if (last?.key === key) return last.registry;
    const text = await readRegistryText(home);
    if (text === undefined) return new Registry();
    const registry = new Registry(parseRegistryText(text, path));
    lastLoaded.set(path, { key, registry });
    return registry;
  }

  /** The canonical node type for a spelling, or undefined. */
  canonical(type: string): string | undefined {
    if (BUILTINS.has(type) || type in this.file.nodes) return type;
    return this.#aliases.get(type);
  }

  get(type: string): NodeInterface | undefined {
    const builtin = BUILTINS.get(type);
    if (builtin) return builtin.interface;
    const canonical = this.canonical(type);
    return canonical ? this.file.nodes[canonical] : undefined;
  }

  /** Carries `types` so the validator's "did you mean" for an unknown type sees every type. */
  readonly lookup: InterfaceLookup = Object.assign((type: string) => this.get(type), {
    types: () => this.types(),
  });

  /**
   * Every node, built-ins first then MCP, each group sorted by type. Computed once per registry
   * (it never changes); the array is shared, so callers must not modify it.
   */
  list(opts: { includeHidden?: boolean } = {}): readonly NodeInterface[] {
    const hidden = opts.includeHidden === true;
    let listed = this.#listed.get(hidden);
    if (!listed) {
      const core = [...BUILTINS.values()].map((n) => n.interface)
        .filter((i) => hidden || !i.hidden)
        .sort(byType);
      listed = Object.freeze([...core, ...Object.values(this.file.nodes).sort(byType)]);
      this.#listed.set(hidden, listed);
    }
    return listed;
  }

  /** All type names (for "did you mean"). */
  types(): string[] {
    return [...BUILTINS.keys(), ...Object.keys(this.file.nodes)];
  }

  /** The implementation that runs a node type: the built-in, or the one generic MCP node. */
  implFor(type: string): NodeImpl | undefined {
    const builtin = BUILTINS.get(type);
    if (builtin) return builtin;
    const entry = this.get(type);
    return entry?.mcp ? mcpNode : undefined;
  }
}
