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

/** The last registry parsed per file, keyed by its exact text. */
const lastLoaded = new Map<string, { text: string; registry: Registry }>();

export class Registry {
  readonly file: RegistryFile;
  /** Verbatim MCP spellings (`mcp-github-create_issue`) → node type (`mcp-github-create-issue`). */
  readonly #aliases = new Map<string, string>();

  constructor(file: RegistryFile = emptyRegistryFile()) {
    this.file = file;
    for (const [type, entry] of Object.entries(file.nodes)) {
      if (entry.mcp) this.#aliases.set(`mcp-${entry.mcp.server}-${entry.mcp.tool}`, type);
    }
  }

  /**
   * Reads `registry.json` under `home` (throws PflowError "parse" when it is corrupt). The file
   * is read every time, so edits are always seen; when its text is unchanged since the last load
   * the parsed registry is reused (a long-lived `mcp serve` would otherwise re-parse thousands of
   * entries on every request). A Registry is never mutated, so sharing it is safe.
   */
  static async load(home: string): Promise<Registry> {
    const path = homePaths(home).registry;
    const text = await readRegistryText(home);
    if (text === undefined) return new Registry();
    const last = lastLoaded.get(path);
    if (last?.text === text) return last.registry;
    const registry = new Registry(parseRegistryText(text, path));
    lastLoaded.set(path, { text, registry });
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

  /** Every node, built-ins first then MCP, each group sorted by type. */
  list(opts: { includeHidden?: boolean } = {}): NodeInterface[] {
    const core = [...BUILTINS.values()].map((n) => n.interface)
      .filter((i) => opts.includeHidden || !i.hidden)
      .sort(byType);
    const mcp = Object.values(this.file.nodes).sort(byType);
    return [...core, ...mcp];
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
