/** deno.json is where the permission profile is written: every task that runs pflow uses it. */
import assert from "node:assert/strict";
import { PFLOW_FLAGS, taskPermissionFlags } from "../scripts/permission_flags.ts";

Deno.test("compile, install, test and bench use exactly the pflow task's permission flags", () => {
  for (const task of ["compile", "install", "test", "bench"]) {
    assert.deepEqual(taskPermissionFlags(task), [...PFLOW_FLAGS], `task ${task}`);
  }
});

Deno.test("the pflow task is scoped: no -A and no --allow-all", () => {
  assert.ok(PFLOW_FLAGS.length > 0);
  assert.ok(!PFLOW_FLAGS.includes("--allow-all"));
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  assert.doesNotMatch(config.tasks.pflow, /(^|\s)-A(\s|$)/);
});
