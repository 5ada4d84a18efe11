// The page's modules import in one direction (node --test): state, then the
// API, then the models, then writes and the change stream, then the views,
// then app.js, which wires them. A module imports only from its own layer or
// those before it, and the views among themselves form no circle.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";

const folder = new URL("../../Sources/AlbumsServer/Page/", import.meta.url);
const layers = [
  ["state"],
  ["api"],
  ["justified-rows", "item-window", "selection", "drop-model", "tree-model", "search-query", "timeline-model", "album-layout"],
  ["live"],
  null,  // every other module of the organizer page: the views
  ["app"],
];
// The share and sign-in pages are pages of their own.
const otherPages = new Set(["share", "signin"]);

const modules = readdirSync(folder).filter((name) => name.endsWith(".js")).map((name) => name.slice(0, -3)).filter((name) => !otherPages.has(name));
const imports = new Map(modules.map((name) => {
  const text = readFileSync(new URL(`${name}.js`, folder), "utf8");
  // `import … from "./x.js"` and the bare `import "./x.js"` alike.
  return [name, [...text.matchAll(/(?:from|import)\s+"\.\/([a-z-]+)\.js"/g)].map((match) => match[1])];
}));
const layerOf = (name) => {
  const index = layers.findIndex((layer) => layer?.includes(name));
  return index >= 0 ? index : layers.indexOf(null);
};

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
  it("import only from their own layer or the layers before it", () => {
    for (const [name, used] of imports) {
      for (const other of used) {
        assert.ok(layerOf(other) <= layerOf(name), `${name}.js imports ${other}.js, a later layer`);
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
});

describe("the organizer page", () => {
  it("preloads exactly the modules app.js reaches, so that none waits for the one importing it", () => {
    const reached = new Set();
    const pending = ["app"];
    while (pending.length > 0) {
      const name = pending.pop();
      if (reached.has(name)) continue;
      reached.add(name);
      pending.push(...(imports.get(name) ?? []));
    }
    const html = readFileSync(new URL("index.html", folder), "utf8");
    const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="\/page\/([a-z-]+)\.js">/g)].map((match) => match[1]));
    assert.deepEqual([...preloaded].sort(), [...reached].sort());
  });
});
