// Selection by click, Ctrl-click and Shift-click (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { carried, choose } from "../../Sources/AlbumsServer/Page/organizer/model/selection.js";

const ids = ["a", "b", "c", "d", "e"];

describe("choose", () => {
  it("a plain click chooses one and anchors there", () => {
    const { selected, anchor } = choose({ selected: new Set(["a", "b"]), anchor: "a", ids, id: "d" });
    assert.deepEqual([...selected], ["d"]);
    assert.equal(anchor, "d");
  });

  it("Ctrl adds or takes away, keeping the order chosen", () => {
    let state = { selected: new Set(["d"]), anchor: "d" };
    state = choose({ ...state, ids, id: "b", toggle: true });
    assert.deepEqual([...state.selected], ["d", "b"]);
    state = choose({ ...state, ids, id: "d", toggle: true });
    assert.deepEqual([...state.selected], ["b"]);
  });

  it("Shift extends from the anchor, either way, and keeps the anchor", () => {
    const forward = choose({ selected: new Set(["b"]), anchor: "b", ids, id: "d", extend: true });
    assert.deepEqual([...forward.selected].sort(), ["b", "c", "d"]);
    assert.equal(forward.anchor, "b");
    const backward = choose({ selected: new Set(["d"]), anchor: "d", ids, id: "a", extend: true });
    assert.deepEqual([...backward.selected].sort(), ["a", "b", "c", "d"]);
  });

  it("Shift with no anchor (or one that is gone) chooses one", () => {
    const { selected } = choose({ selected: new Set(), anchor: "gone", ids, id: "c", extend: true });
    assert.deepEqual([...selected], ["c"]);
  });
});

describe("carried", () => {
  it("the selection in album order when the item is in it, else the item alone", () => {
    const selected = new Set(["e", "b"]);
    assert.deepEqual(carried({ selected, ids, id: "e" }), ["b", "e"]);
    assert.deepEqual(carried({ selected, ids, id: "c" }), ["c"]);
  });
});
