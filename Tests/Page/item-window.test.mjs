// The window of loaded items (node --test): replaying change sets on a
// window gives, at every loaded index, what the list holds after the
// change; reading, inserting and forgetting keep ids and indexes paired.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ItemWindow } from "../../Sources/AlbumsServer/Page/organizer/model/item-window.js";
import { randomChange, seeded } from "./random-changes.mjs";

const item = (id) => ({ item_id: id });
const change = (parts) => ({ removed: [], inserted: [], moved: [], updated: [], ...parts });

/// A window of `list` with only the indexes `loaded` read.
function windowOf(list, loaded) {
  const window = new ItemWindow(list.length);
  for (const index of loaded) window.set(index, item(list[index]));
  return window;
}

/// The loaded ids by index.
const contents = (window) => Object.fromEntries([...window.items].map(([index, each]) => [index, each.item_id]));

describe("ItemWindow", () => {
  it("reads runs, says what is missing, and finds items by id", () => {
    const window = new ItemWindow(10);
    window.put(2, ["c", "d", "e"].map(item));
    assert.deepEqual(window.missing(0, 10), [[0, 2], [5, 10]]);
    assert.equal(window.indexOf("d"), 3);
    assert.equal(window.indexOf("z"), -1);
    assert.ok(window.covers(2, 5) && !window.covers(1, 5));
    assert.deepEqual(window.ids(), ["c", "d", "e"]);
  });

  it("an item read again at another index leaves its old one", () => {
    const window = new ItemWindow(5);
    window.put(0, ["a", "b"].map(item));
    window.set(3, item("a"));
    assert.equal(window.at(0), undefined);
    assert.equal(window.indexOf("a"), 3);
  });

  it("local items inserted at a slot push the rest up", () => {
    const window = windowOf(["a", "b", "c"], [0, 1, 2]);
    window.insert(1, [item("x"), item("y")]);
    assert.equal(window.count, 5);
    assert.deepEqual(contents(window), { 0: "a", 1: "x", 2: "y", 3: "b", 4: "c" });
    assert.equal(window.indexOf("c"), 4);
  });

  it("forgets the farthest items first, never those in view or kept", () => {
    const list = Array.from({ length: 20 }, (_, index) => `i${index}`);
    const window = windowOf(list, list.keys());
    window.trim(8, 12, 6, new Set(["i0"]));
    const left = Object.values(contents(window));
    assert.equal(left.length, 6);
    for (const id of ["i0", "i8", "i9", "i10", "i11"]) assert.ok(left.includes(id), id);
    assert.ok(left.includes("i7") || left.includes("i12"), "the sixth is one of the nearest");
  });

  it("a change set too large to replay, or one that does not fit, answers false", () => {
    assert.equal(windowOf(["a"], [0]).replay(change({ removed: [1, 2] }), () => undefined), false);
    assert.equal(windowOf(["a", "b"], [0, 1]).replay(change({ moved: [{ from: 1, to: 2 }], inserted: [2] }), () => item("c")), false);
    const huge = change({ moved: Array.from({ length: 60_000 }, (_, index) => ({ from: index + 1, to: index + 1 })) });
    assert.equal(new ItemWindow(60_000).replay(huge, () => undefined), false);
  });

  it("random changes on random windows: every loaded index holds what the whole list holds", () => {
    const random = seeded(7);
    for (let round = 0; round < 3000; round++) {
      const { before, after, change: set } = randomChange(random, 30, round);
      // A window with some of the old list read; inserted items are read only
      // when the page asks for them (here: half of the time).
      const loaded = before.flatMap((_, index) => (random(3) ? [index] : []));
      const window = windowOf(before, loaded);
      const reads = random(2) === 0;
      assert.ok(window.replay(set, (position) => (reads ? item(after[position - 1]) : undefined)), JSON.stringify(set));
      assert.equal(window.count, after.length);
      for (const [index, each] of window.items) assert.equal(each.item_id, after[index], JSON.stringify({ before, after, set, loaded, index }));
      for (const [index, each] of window.items) assert.equal(window.indexOf(each.item_id), index);
      // Every item that was loaded and stays is still loaded.
      for (const index of loaded) if (after.includes(before[index])) assert.notEqual(window.indexOf(before[index]), -1);
    }
  });
});
