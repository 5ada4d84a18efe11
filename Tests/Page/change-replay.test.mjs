// The page's replay of change sets, on its own (node --test): the cases
// the Swift tests hold the library's change sets to, and random ones.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { positionsToRead, replayChange } from "../../Sources/AlbumsServer/Page/change-replay.js";

/// Replays with the items of `after` as what the server answers for a position.
const replay = (before, change, after) => replayChange(before, change, (position) => after[position - 1]);
const change = (parts) => ({ removed: [], inserted: [], moved: [], updated: [], ...parts });

describe("replayChange", () => {
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

  it("an empty change set leaves the list as it is", () => {
    assert.deepEqual(replay(["a", "b"], change({}), ["a", "b"]), ["a", "b"]);
  });

  it("a change set that does not fit the list answers null (the album is read again)", () => {
    assert.equal(replay(["a"], change({ removed: [1, 2] }), []), null, "more removed than there are");
    assert.equal(replay(["a", "b"], change({ moved: [{ from: 3, to: 1 }] }), ["c", "a"]), null, "a move from nowhere");
    assert.equal(replay(["a"], change({ inserted: [3] }), ["a", "b"]), null, "an insertion past the end");
    assert.equal(replay(["a"], change({ inserted: [1] }), []), null, "an inserted item the server does not give");
    assert.equal(replay(["a", "b"], change({ moved: [{ from: 1, to: 2 }], inserted: [2] }), ["b", "a", "c"]), null, "two items for one slot");
  });

  it("random lists and changes: replay gives the new list", () => {
    let seed = 20261124;
    const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let round = 0; round < 2000; round++) {
      const before = Array.from({ length: random(12) }, (_, index) => `o${index}`);
      // Some leave, some new ones come, the rest are shuffled a little.
      const staying = before.filter(() => random(4) !== 0);
      const after = [...staying];
      for (let count = random(4); count > 0; count--) after.splice(random(after.length + 1), 0, `n${round}-${count}`);
      for (let swaps = random(3); swaps > 0 && after.length > 1; swaps--) {
        const i = random(after.length); const j = random(after.length);
        [after[i], after[j]] = [after[j], after[i]];
      }
      // The change set as the library reports it: removals in the old list,
      // insertions in the new, and a move for each item that stays but is
      // out of the order its neighbours keep (here: every one whose place changed
      // relative to the ones left in place, by a greedy pass).
      const removed = before.flatMap((item, index) => (after.includes(item) ? [] : [index + 1]));
      const inserted = after.flatMap((item, index) => (before.includes(item) ? [] : [index + 1]));
      const kept = after.filter((item) => before.includes(item));
      const inOrder = new Set();
      let last = -1;
      for (const item of kept) { const at = before.indexOf(item); if (at > last) { inOrder.add(item); last = at; } }
      const moved = kept.filter((item) => !inOrder.has(item)).map((item) => ({ from: before.indexOf(item) + 1, to: after.indexOf(item) + 1 }));
      const set = change({ removed, inserted, moved });
      assert.deepEqual(replay(before, set, after), after, JSON.stringify({ before, after, set }));
    }
  });
});
