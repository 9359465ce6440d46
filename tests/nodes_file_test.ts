/** The file nodes against real files in a temp dir: read, write (atomic, append), copy, move, delete. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyFileNode } from "../src/nodes/copy_file.ts";
import { deleteFileNode } from "../src/nodes/delete_file.ts";
import { moveFileNode } from "../src/nodes/move_file.ts";
import { readFileNode } from "../src/nodes/read_file.ts";
import { writeFileNode } from "../src/nodes/write_file.ts";
import { testContext } from "./_node_context.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pflow-file-test-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// read-file

Deno.test("read-file: reads text relative to ctx.cwd with path and byte size", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "héllo");
    const r = await readFileNode.run({ file_path: "a.txt" }, testContext({ cwd: dir }));
    assert.equal(r.action, "default");
    assert.deepEqual(r.outputs, { content: "héllo", path: join(dir, "a.txt"), size: 6 });
  });
});

Deno.test("read-file: a missing file is an error naming the path", async () => {
  await withTempDir(async (dir) => {
    const r = await readFileNode.run({ file_path: "nope.txt" }, testContext({ cwd: dir }));
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", new RegExp(`${join(dir, "nope.txt")}: no such file`));
  });
});

Deno.test("read-file: base64 encoding reads binary files", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeFile(join(dir, "b.bin"), new Uint8Array([0, 255, 128]));
    const r = await readFileNode.run(
      { file_path: "b.bin", encoding: "base64" },
      testContext({ cwd: dir }),
    );
    assert.equal(r.outputs.content, "AP+A");
  });
});

Deno.test("read-file: non-UTF-8 bytes as text are an error suggesting base64", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeFile(join(dir, "b.bin"), new Uint8Array([0xff, 0xfe, 0x00]));
    const r = await readFileNode.run({ file_path: "b.bin" }, testContext({ cwd: dir }));
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /encoding: base64/);
  });
});

Deno.test("read-file: an unknown encoding is an error listing the allowed ones", async () => {
  const r = await readFileNode.run({ file_path: "x", encoding: "latin1" }, testContext());
  assert.equal(r.action, "error");
  assert.match(r.error ?? "", /must be one of "utf8", "utf-8", "base64"/);
});

// write-file

Deno.test("write-file: writes a string, creating parent folders, and reports bytes", async () => {
  await withTempDir(async (dir) => {
    const r = await writeFileNode.run(
      { file_path: "x/y/out.txt", content: "é!" },
      testContext({ cwd: dir }),
    );
    assert.deepEqual(r.outputs, { written: true, path: join(dir, "x/y/out.txt"), bytes: 3 });
    assert.equal(await Deno.readTextFile(join(dir, "x/y/out.txt")), "é!");
  });
});

Deno.test("write-file: an object is written as JSON", async () => {
  await withTempDir(async (dir) => {
    await writeFileNode.run(
      { file_path: "o.json", content: { a: [1, 2] } },
      testContext({ cwd: dir }),
    );
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(dir, "o.json"))), { a: [1, 2] });
  });
});

Deno.test("write-file: replacing is atomic (no temp file left) and keeps the file's mode", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "f.txt");
    await Deno.writeTextFile(path, "old content that is longer");
    await Deno.chmod(path, 0o600);
    await writeFileNode.run({ file_path: path, content: "new" }, testContext());
    assert.equal(await Deno.readTextFile(path), "new");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assert.deepEqual(names, ["f.txt"]);
  });
});

Deno.test("write-file: append adds to the end of the file", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "log.txt");
    await Deno.writeTextFile(path, "one\n");
    const r = await writeFileNode.run(
      { file_path: path, content: "two\n", append: true },
      testContext(),
    );
    assert.equal(r.outputs.bytes, 4);
    assert.equal(await Deno.readTextFile(path), "one\ntwo\n");
  });
});

Deno.test("write-file: create_dirs false with a missing folder is an error naming it", async () => {
  await withTempDir(async (dir) => {
    const r = await writeFileNode.run(
      { file_path: "missing/f.txt", content: "x", create_dirs: false },
      testContext({ cwd: dir }),
    );
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /missing does not exist.*create_dirs: true/);
  });
});

// copy-file

Deno.test("copy-file: copies content to a new path", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.txt"), "data");
    const r = await copyFileNode.run(
      { source_path: "s.txt", dest_path: "sub/d.txt" },
      testContext({ cwd: dir }),
    );
    assert.deepEqual(r.outputs, {
      source_path: join(dir, "s.txt"),
      dest_path: join(dir, "sub/d.txt"),
    });
    assert.equal(await Deno.readTextFile(join(dir, "sub/d.txt")), "data");
    assert.equal(await Deno.readTextFile(join(dir, "s.txt")), "data");
  });
});

Deno.test("copy-file: refuses an existing destination and leaves it untouched", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.txt"), "new");
    await Deno.writeTextFile(join(dir, "d.txt"), "keep");
    const r = await copyFileNode.run(
      { source_path: "s.txt", dest_path: "d.txt" },
      testContext({ cwd: dir }),
    );
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /already exists; set overwrite: true/);
    assert.equal(await Deno.readTextFile(join(dir, "d.txt")), "keep");
    const names = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    assert.deepEqual(names.sort(), ["d.txt", "s.txt"]);
  });
});

Deno.test("copy-file: overwrite true replaces an existing destination", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.txt"), "new");
    await Deno.writeTextFile(join(dir, "d.txt"), "old");
    const r = await copyFileNode.run(
      { source_path: "s.txt", dest_path: "d.txt", overwrite: true },
      testContext({ cwd: dir }),
    );
    assert.equal(r.action, "default");
    assert.equal(await Deno.readTextFile(join(dir, "d.txt")), "new");
  });
});

Deno.test("copy-file: a missing source is an error naming it", async () => {
  await withTempDir(async (dir) => {
    const r = await copyFileNode.run(
      { source_path: "none.txt", dest_path: "d.txt" },
      testContext({ cwd: dir }),
    );
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /none\.txt: no such file/);
  });
});

// move-file

Deno.test("move-file: moves a file, removing the source", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.txt"), "data");
    const r = await moveFileNode.run(
      { source_path: "s.txt", dest_path: "to/d.txt" },
      testContext({ cwd: dir }),
    );
    assert.equal(r.action, "default");
    assert.equal(await Deno.readTextFile(join(dir, "to/d.txt")), "data");
    await assert.rejects(Deno.stat(join(dir, "s.txt")), Deno.errors.NotFound);
  });
});

Deno.test("move-file: refuses an existing destination and keeps both files", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.txt"), "new");
    await Deno.writeTextFile(join(dir, "d.txt"), "keep");
    const r = await moveFileNode.run(
      { source_path: "s.txt", dest_path: "d.txt" },
      testContext({ cwd: dir }),
    );
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /already exists; set overwrite: true/);
    assert.equal(await Deno.readTextFile(join(dir, "d.txt")), "keep");
    assert.equal(await Deno.readTextFile(join(dir, "s.txt")), "new");
  });
});

Deno.test("move-file: overwrite true replaces an existing destination", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.txt"), "new");
    await Deno.writeTextFile(join(dir, "d.txt"), "old");
    await moveFileNode.run(
      { source_path: "s.txt", dest_path: "d.txt", overwrite: true },
      testContext({ cwd: dir }),
    );
    assert.equal(await Deno.readTextFile(join(dir, "d.txt")), "new");
    await assert.rejects(Deno.stat(join(dir, "s.txt")), Deno.errors.NotFound);
  });
});

Deno.test("move-file: moves a folder but refuses an existing destination folder", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "a"));
    await Deno.writeTextFile(join(dir, "a/f.txt"), "x");
    await Deno.mkdir(join(dir, "taken"));
    const refused = await moveFileNode.run(
      { source_path: "a", dest_path: "taken" },
      testContext({ cwd: dir }),
    );
    assert.equal(refused.action, "error");
    const moved = await moveFileNode.run(
      { source_path: "a", dest_path: "b" },
      testContext({ cwd: dir }),
    );
    assert.equal(moved.action, "default");
    assert.equal(await Deno.readTextFile(join(dir, "b/f.txt")), "x");
  });
});

Deno.test("move-file: moves across file systems (tmp dir to /dev/shm)", async () => {
  let shm: string;
  try {
    shm = await Deno.makeTempDir({ dir: "/dev/shm" });
  } catch {
    return; // No second file system on this machine: nothing to test.
  }
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(join(dir, "s.txt"), "far");
      await Deno.writeTextFile(join(shm, "taken.txt"), "keep");
      const refused = await moveFileNode.run(
        { source_path: join(dir, "s.txt"), dest_path: join(shm, "taken.txt") },
        testContext(),
      );
      assert.equal(refused.action, "error");
      assert.equal(await Deno.readTextFile(join(shm, "taken.txt")), "keep");
      const r = await moveFileNode.run(
        { source_path: join(dir, "s.txt"), dest_path: join(shm, "d.txt") },
        testContext(),
      );
      assert.equal(r.action, "default");
      assert.equal(await Deno.readTextFile(join(shm, "d.txt")), "far");
      await assert.rejects(Deno.stat(join(dir, "s.txt")), Deno.errors.NotFound);
    });
  } finally {
    await Deno.remove(shm, { recursive: true });
  }
});

// delete-file

Deno.test("delete-file: deletes a file", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "f.txt"), "x");
    const r = await deleteFileNode.run({ file_path: "f.txt" }, testContext({ cwd: dir }));
    assert.deepEqual(r.outputs, { deleted: true, path: join(dir, "f.txt") });
    await assert.rejects(Deno.stat(join(dir, "f.txt")), Deno.errors.NotFound);
  });
});

Deno.test("delete-file: a missing file is an error unless missing_ok", async () => {
  await withTempDir(async (dir) => {
    const r = await deleteFileNode.run({ file_path: "gone" }, testContext({ cwd: dir }));
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /gone: no such file/);
    const ok = await deleteFileNode.run(
      { file_path: "gone", missing_ok: true },
      testContext({ cwd: dir }),
    );
    assert.equal(ok.action, "default");
    assert.equal(ok.outputs.deleted, false);
  });
});

Deno.test("delete-file: refuses a folder", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "d"));
    const r = await deleteFileNode.run({ file_path: "d" }, testContext({ cwd: dir }));
    assert.equal(r.action, "error");
    assert.match(r.error ?? "", /is a directory/);
    assert.ok((await Deno.stat(join(dir, "d"))).isDirectory);
  });
});
