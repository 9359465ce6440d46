/** Every built-in node type, in one list: the registry's source for core nodes. */
import type { NodeImpl } from "./types.ts";
import { shellNode } from "./shell.ts";
import { readFileNode } from "./read_file.ts";
import { writeFileNode } from "./write_file.ts";
import { copyFileNode } from "./copy_file.ts";
import { moveFileNode } from "./move_file.ts";
import { deleteFileNode } from "./delete_file.ts";
import { httpNode } from "./http.ts";
import { echoNode } from "./echo.ts";
import { workflowNode } from "./workflow.ts";

export const BUILTIN_NODES: readonly NodeImpl[] = [
  shellNode,
  readFileNode,
  writeFileNode,
  copyFileNode,
  moveFileNode,
  deleteFileNode,
  httpNode,
  workflowNode,
  echoNode,
];
