// The album list's tree: rows, places and the operations that reach them (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  buildTree, childrenOf, describeTarget, isWhereItIs, keyboardTargets, moveOperation, pointerTarget, reflects, typeAhead, visibleRows,
} from "../../Sources/AlbumsServer/Page/organizer/model/tree-model.js";

/// Travel/{2026/{Lisbon}, Porto}, Book: as GET /api/albums answers it.
const answer = {
  albums: [
    { id: 2, name: "Lisbon", parent_id: 2, position: 1, revision: 1, count: 3 },
    { id: 3, name: "Porto", parent_id: 1, position: 2, revision: 1, count: 0 },
    { id: 1, name: "Book", parent_id: null, position: 2, revision: 4, count: 9 },
  ],
  folders: [
    { id: 1, name: "Travel", path: "Travel", parent_id: null, position: 1 },
    { id: 2, name: "2026", path: "Travel/2026", parent_id: 1, position: 1 },
  ],
};

const names = (rows) => rows.map((row) => `${"  ".repeat(row.depth)}${row.node.name}`);

describe("the tree", () => {
  it("is built in order, each folder counting the albums inside it", () => {
    const tree = buildTree(answer);
    assert.deepEqual(tree.roots.map((node) => node.name), ["Travel", "Book"]);
    assert.equal(tree.folders.get(1).albumCount, 2);
    assert.equal(tree.albums.get(2).path, "Travel/2026/Lisbon");
  });

  it("shows a folder's children only while it is open, with their places for screen readers", () => {
    const tree = buildTree(answer);
    assert.deepEqual(names(visibleRows(tree, new Set())), ["Travel", "Book"]);
    const rows = visibleRows(tree, new Set([1, 2]));
    assert.deepEqual(names(rows), ["Travel", "  2026", "    Lisbon", "  Porto", "Book"]);
    assert.deepEqual(rows.map((row) => [row.posinset, row.setsize]), [[1, 2], [1, 2], [1, 1], [2, 2], [2, 2]]);
  });

  it("type-ahead finds the next row starting with what was typed, wrapping", () => {
    const rows = visibleRows(buildTree(answer), new Set([1, 2]));
    assert.equal(typeAhead(rows, 0, "p"), 3);
    assert.equal(typeAhead(rows, 3, "t"), 0);
    assert.equal(typeAhead(rows, 0, "z"), -1);
  });
});

describe("where a drop lands", () => {
  const tree = buildTree(answer);
  const rows = visibleRows(tree, new Set([1, 2]));
  const book = tree.albums.get(1);

  it("on an album: its top half before it, its bottom half after it, in its folder", () => {
    const porto = rows[3];
    assert.deepEqual(moveOperation(tree, book, pointerTarget(tree, book, porto, 0.2, false)),
      { op: "move_album", album: "Book", into: "Travel", at: 2, expect_revision: { Book: 4 } });
    assert.equal(moveOperation(tree, book, pointerTarget(tree, book, porto, 0.8, false)).at, 3);
  });

  it("on a folder: its middle into it, its edges beside it; an open folder's lower part is its first place", () => {
    const year = rows[1];
    assert.deepEqual(pointerTarget(tree, book, year, 0.5, false).kind, "into");
    assert.equal(moveOperation(tree, book, pointerTarget(tree, book, year, 0.5, false)).at, 2);
    assert.equal(moveOperation(tree, book, pointerTarget(tree, book, year, 0.9, true)).at, 1);
    assert.equal(pointerTarget(tree, book, year, 0.1, true).kind, "before");
  });

  it("a folder moves by its path; the top level is /", () => {
    const travel = tree.folders.get(1);
    assert.deepEqual(moveOperation(tree, travel, pointerTarget(tree, travel, rows[4], 0.9, false)), { op: "move_folder", folder: "Travel", into: "/", at: 2 });
    assert.equal(describeTarget(tree, travel, pointerTarget(tree, travel, rows[4], 0.9, false)), "to the top level, place 2 of 2");
  });
});

/// A random tree of folders and albums, as the API would answer it.
function randomAnswer(random) {
  const folders = [];
  const albums = [];
  const counts = new Map([[null, 0]]);
  const next = (parent) => { counts.set(parent, (counts.get(parent) ?? 0) + 1); return counts.get(parent); };
  for (let id = 1; id <= 1 + Math.floor(random() * 6); id++) {
    const parents = [null, ...folders.map((folder) => folder.id)];
    const parent = parents[Math.floor(random() * parents.length)];
    const path = parent === null ? `F${id}` : `${folders.find((f) => f.id === parent).path}/F${id}`;
    folders.push({ id, name: `F${id}`, path, parent_id: parent, position: next(parent) });
  }
  for (let id = 1; id <= 1 + Math.floor(random() * 8); id++) {
    const parents = [null, ...folders.map((folder) => folder.id)];
    const parent = parents[Math.floor(random() * parents.length)];
    albums.push({ id, name: `A${id}`, parent_id: parent, position: next(parent), revision: 1 });
  }
  return { albums, folders };
}

/// What the server does with a move: out of its parent, into the target's at the index.
function applyMove(tree, node, target) {
  const layout = new Map();
  const visit = (parentId) => {
    const children = childrenOf(tree, parentId).filter((child) => child !== node);
    layout.set(parentId, children);
    for (const child of children) if (child.kind === "folder") visit(child.id);
  };
  visit(null);
  if (node.kind === "folder") visit(node.id);
  layout.get(target.parentId).splice(target.index, 0, node);
  return JSON.stringify([...layout.entries()].map(([parent, children]) => [parent, children.map((child) => `${child.kind}${child.id}`)]).sort());
}

describe("lifting with the keyboard", () => {
  it("steps through every place once, in the rows' order, never into the lifted folder itself (300 random trees)", () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let round = 0; round < 300; round++) {
      const tree = buildTree(randomAnswer(random));
      const everyFolder = new Set(tree.folders.keys());
      const rows = visibleRows(tree, everyFolder);
      const nodes = rows.map((row) => row.node);
      const node = nodes[Math.floor(random() * nodes.length)];
      const targets = keyboardTargets(tree, rows, node);
      // Each place once: no two stops give the same tree.
      const results = targets.map((target) => applyMove(tree, node, target));
      assert.equal(new Set(results).size, results.length, "two stops name one place");
      // One stop is where it stands; none is inside the lifted folder.
      assert.equal(targets.filter((target) => isWhereItIs(node, target)).length, 1);
      for (const target of targets) {
        assert.ok(target.index >= 0 && target.index <= childrenOf(tree, target.parentId).filter((child) => child !== node).length);
        if (node.kind === "folder" && target.parentId !== null) {
          for (let at = tree.folders.get(target.parentId); at; at = at.parentId === null ? null : tree.folders.get(at.parentId)) {
            assert.notEqual(at.id, node.id, "a folder offered a place inside itself");
          }
        }
      }
      // Every place of every folder not inside it is offered (all folders are open).
      const offered = new Set(targets.map((target) => `${target.parentId}:${target.index}`));
      for (const parent of [null, ...tree.folders.keys()]) {
        let inside = false;
        for (let at = parent === null ? null : tree.folders.get(parent); at; at = at.parentId === null ? null : tree.folders.get(at.parentId)) {
          if (node.kind === "folder" && at.id === node.id) inside = true;
        }
        if (inside) continue;
        const count = childrenOf(tree, parent).filter((child) => child !== node).length;
        for (let index = 0; index <= count; index++) assert.ok(offered.has(`${parent}:${index}`), `place ${index} of ${parent} not offered`);
      }
    }
  });
});

// Whether the list shows a committed change already, so that a write reads the list once.
const shownTree = buildTree({
  albums: [
    { id: 1, name: "Trip", parent_id: null, position: 1, revision: 5, locked: false },
    { id: 2, name: "Beach", parent_id: 7, position: 1, revision: 3, locked: false },
  ],
  folders: [{ id: 7, name: "Family", path: "Family", parent_id: null, position: 2, revision: 4, locked: false }],
});
const change = (operations, folders = [], more = {}) => ({ sequence: 1, follows_a_gap: false, rights_changed: false, operations: [operations], folder_changes: folders, ...more });

describe("tree-model.js reflects", () => {
  it("a change whose albums and folders stand at its revisions is shown already", () => {
    assert.equal(reflects(shownTree, change([{ album_id: 1, album_events: ["renamed"], revision: 5 }], [{ folder_id: 7, events: ["rearranged"], revision: 4 }])), true);
    assert.equal(reflects(shownTree, change([{ album_id: 9, album_events: ["deleted"], revision: 2 }])), true, "a deleted album the list no longer has");
  });

  it("a newer revision, an album still shown after its deletion, a new one not shown, a gap or a change of rights: read again", () => {
    assert.equal(reflects(shownTree, change([{ album_id: 1, album_events: [], revision: 6 }])), false);
    assert.equal(reflects(shownTree, change([{ album_id: 2, album_events: ["deleted"], revision: 4 }])), false);
    assert.equal(reflects(shownTree, change([{ album_id: 3, album_events: ["created"], revision: 1 }])), false);
    assert.equal(reflects(shownTree, change([], [{ folder_id: 7, events: ["renamed"], revision: 5 }])), false);
    assert.equal(reflects(shownTree, change([{ album_id: 1, album_events: [], revision: 5 }], [], { follows_a_gap: true })), false);
    assert.equal(reflects(shownTree, change([], [], { rights_changed: true })), false);
    assert.equal(reflects(null, change([])), false);
  });
});
