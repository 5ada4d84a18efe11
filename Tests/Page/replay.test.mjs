// The page's replay of change sets on a whole album read (node --test):
// the cases the Swift tests hold the library's change sets to, and random ones.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ItemWindow, positionsToRead } from "../../Sources/AlbumsServer/Page/organizer/model/item-window.js";
import { randomChange, seeded } from "./random-changes.mjs";

/// Replays on a window holding every item of `before`, with the items of
/// `after` as what the server answers for a position; answers the ids it
/// then holds in order (undefined where nothing was read), or null when the
/// change does not fit.
function replay(before, change, after) {
  const window = new ItemWindow(before.length);
  window.put(0, before.map((id) => ({ item_id: id })));
  if (!window.replay(change, (position) => (after[position - 1] === undefined ? undefined : { item_id: after[position - 1] }))) return null;
  return Array.from({ length: window.count }, (_, index) => window.at(index)?.item_id);
}
const change = (parts) => ({ removed: [], inserted: [], moved: [], updated: [], ...parts });

describe("a change set replayed on a whole album", () => {
  it("a reorder: moves from old to new positions, fixed points included", () => {
    // As TransferTests' reorder: b, e, d moved to just after a.
    const before = ["a", "b", "c", "d", "e"];
    const after = ["a", "b", "e", "d", "c"];
    const set = change({ moved: [{ from: 2, to: 2 }, { from: 4, to: 4 }, { from: 5, to: 3 }] });
    assert.deepEqual(replay(before, set, after), after);
  });

  it("across albums: the source loses positions, the destination gains them in order", () => {
    // As TransferTests' acrossAlbums: d and a leave Trip for Book at position 2.
    assert.deepEqual(replay(["a", "b", "c", "d", "e"], change({ removed: [1, 4] }), ["b", "c", "e"]), ["b", "c", "e"]);
    assert.deepEqual(replay(["f", "g"], change({ inserted: [2, 3] }), ["f", "d", "a", "g"]), ["f", "d", "a", "g"]);
  });

  it("placeholders that became photos are updated in place, after moves and insertions", () => {
    const set = change({ inserted: [1], updated: [3] });
    assert.deepEqual(replay(["x", "loading"], set, ["new", "x", "photo"]), ["new", "x", "photo"]);
    assert.deepEqual(positionsToRead(set), [1, 3]);
  });

  it("an inserted item the server does not give stays unread: it is read when it comes into view", () => {
    assert.deepEqual(replay(["a"], change({ inserted: [1] }), []), [undefined, "a"]);
  });

  it("an empty change set leaves the list as it is", () => {
    assert.deepEqual(replay(["a", "b"], change({}), ["a", "b"]), ["a", "b"]);
  });

  it("a change set that does not fit the list is refused (the album is read again)", () => {
    assert.equal(replay(["a"], change({ removed: [1, 2] }), []), null, "more removed than there are");
    assert.equal(replay(["a", "b"], change({ moved: [{ from: 3, to: 1 }] }), ["c", "a"]), null, "a move from nowhere");
    assert.equal(replay(["a"], change({ inserted: [3] }), ["a", "b"]), null, "an insertion past the end");
    assert.equal(replay(["a", "b"], change({ moved: [{ from: 1, to: 2 }], inserted: [2] }), ["b", "a", "c"]), null, "two items for one slot");
  });

  it("random lists and changes: replay gives the new list", () => {
    const random = seeded(20261124);
    for (let round = 0; round < 2000; round++) {
      const { before, after, change: set } = randomChange(random, 12, round);
      assert.deepEqual(replay(before, set, after), after, JSON.stringify({ before, after, set }));
    }
  });
});
