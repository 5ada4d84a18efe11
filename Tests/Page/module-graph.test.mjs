// The page is folded by page and by layer, and its modules import in one
// direction (node --test). A page of its own (share/, signin/) imports only
// from itself and common/. The organizer's layers are its folders, in this
// order: core/ (state, then the API), model/ (pure, tested here), writes/
// (writes and the change stream), view/, then app.js, which wires them. A
// module imports only from its own layer or those before it, and the
// modules form no circle. A module's layer is its folder: nothing here names
// a file.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../Sources/AlbumsServer/Page/", import.meta.url));
const organizerLayers = ["common", "organizer/core", "organizer/model", "organizer/writes", "organizer/view", "organizer"];
const pages = ["share", "signin"];

/// Every file below `folder`, as a path relative to the page's root.
function filesUnder(folder) {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = folder ? `${folder}/${name}` : name;
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const modules = filesUnder("").filter((path) => path.endsWith(".js"));
/// Each module's imports, as paths relative to the page's root.
const imports = new Map(modules.map((path) => {
  const text = readFileSync(join(root, path), "utf8");
  // `import … from "./x.js"` and the bare `import "../x.js"` alike.
  return [path, [...text.matchAll(/(?:from|import)\s+["'](\.{1,2}\/[a-z.\-/]+\.js)["']/g)].map((match) => normalize(join(dirname(path), match[1])))];
}));
const folderOf = (path) => dirname(path);
const layerOf = (path) => organizerLayers.indexOf(folderOf(path));

/// A circle of imports starting and ending at one module, or null.
export function findCycle(graph) {
  const state = new Map();
  const path = [];
  function visit(name) {
    if (state.get(name) === "done") return null;
    if (state.get(name) === "open") return [...path.slice(path.indexOf(name)), name];
    state.set(name, "open");
    path.push(name);
    for (const next of graph.get(name) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, "done");
    return null;
  }
  for (const name of graph.keys()) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

describe("the page's modules", () => {
  it("each lives in a folder the layers or the pages name", () => {
    for (const path of modules) {
      assert.ok(layerOf(path) >= 0 || pages.includes(folderOf(path)), `${path} is in no layer and no page's folder`);
    }
  });

  it("import only modules that exist", () => {
    for (const [path, used] of imports) {
      for (const other of used) assert.ok(modules.includes(other), `${path} imports ${other}, which is not there`);
    }
  });

  it("import only from their own layer or the layers before it", () => {
    for (const [path, used] of imports) {
      if (layerOf(path) < 0) continue;
      for (const other of used) {
        assert.ok(layerOf(other) >= 0 && layerOf(other) <= layerOf(path), `${path} imports ${other}, a later layer or another page`);
      }
    }
  });

  it("of a page of its own import only from that page and common/", () => {
    for (const [path, used] of imports) {
      if (!pages.includes(folderOf(path))) continue;
      for (const other of used) {
        assert.ok([folderOf(path), "common"].includes(folderOf(other)), `${path} imports ${other}`);
      }
    }
  });

  it("import each other in no circle", () => {
    const cycle = findCycle(imports);
    assert.equal(cycle, null, `a circle: ${cycle?.join(" → ")}`);
  });

  it("the check finds a circle where there is one", () => {
    assert.deepEqual(findCycle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])), ["a", "b", "c", "a"]);
    assert.equal(findCycle(new Map([["a", ["b"]], ["b", []]])), null);
  });

  it("load under node, each on its own: none looks the page up at import (app.js, which runs the page, aside)", async () => {
    for (const path of modules.filter((path) => (path.startsWith("organizer/") || path.startsWith("common/")) && path !== "organizer/app.js")) {
      await import(join(root, path));
    }
  });
});

describe("the organizer page", () => {
  it("preloads exactly the modules app.js reaches, so that none waits for the one importing it", () => {
    const reached = new Set();
    const pending = ["organizer/app.js"];
    while (pending.length > 0) {
      const path = pending.pop();
      if (reached.has(path)) continue;
      reached.add(path);
      pending.push(...(imports.get(path) ?? []));
    }
    const html = readFileSync(join(root, "organizer/index.html"), "utf8");
    const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/page\/([a-z\-/]+\.js)">/g)].map((match) => match[1]));
    assert.deepEqual([...preloaded].sort(), [...reached].sort());
  });
});

describe("every page", () => {
  it("names its icon, so that no browser asks for /favicon.ico (a 401 before signing in)", () => {
    const html = filesUnder("").filter((path) => path.endsWith(".html"));
    assert.deepEqual(html.sort(), ["organizer/index.html", "share/share.html", "signin/signin.html"]);
    for (const path of html) {
      const text = readFileSync(join(root, path), "utf8");
      const icon = text.match(/<link rel="icon" href="\/page\/([a-z\-/]+\.svg)"/);
      assert.ok(icon, `${path} names no icon`);
      assert.ok(statSync(join(root, icon[1])).isFile(), `${path}: ${icon[1]} is not a file`);
    }
  });
});
