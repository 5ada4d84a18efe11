// The operation a drop asks for (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chosenPosition, dropOperation, landingPosition } from "../../Sources/AlbumsServer/Page/organizer/model/drop-model.js";

describe("landingPosition", () => {
  it("within one album, the carried items are not counted before the slot", () => {
    // Carrying 1 and 3 of five, dropped in front of the item now at slot 4 (the fifth).
    assert.equal(landingPosition({ carriedPositions: [1, 3], slot: 4, sameAlbum: true, copy: false }), 3);
    assert.equal(landingPosition({ carriedPositions: [2], slot: 0, sameAlbum: true, copy: false }), 1);
    assert.equal(landingPosition({ carriedPositions: [2], slot: 5, sameAlbum: true, copy: false }), 5);
  });

  it("into another album, or as a copy, the slot is the position", () => {
    assert.equal(landingPosition({ carriedPositions: [1, 3], slot: 4, sameAlbum: false, copy: false }), 5);
    assert.equal(landingPosition({ carriedPositions: [1, 3], slot: 4, sameAlbum: true, copy: true }), 5);
  });
});

describe("dropOperation", () => {
  it("a move to a slot names the items, the place and the revisions seen", () => {
    const operation = dropOperation({ from: { name: "Trip", revision: 7 }, positions: [5, 2], to: { name: "Book", revision: 3 }, slot: 0 });
    assert.deepEqual(operation, { op: "move", items: ["Trip:5", "Trip:2"], to: "Book", at: 1, expect_revision: { Trip: 7, Book: 3 } });
  });

  it("a drop on an album of the list appends: no position, and only the source's revision", () => {
    const operation = dropOperation({ from: { name: "Trip", revision: 7 }, positions: [1], to: { name: "Book", revision: null }, copy: true });
    assert.deepEqual(operation, { op: "copy", items: ["Trip:1"], to: "Book", expect_revision: { Trip: 7 } });
  });

  it("album names with colons stay whole: the reference splits at the last one", () => {
    const operation = dropOperation({ from: { name: "Rome: day 1", revision: 1 }, positions: [2], to: { name: "Rome: day 1", revision: 1 }, slot: 0 });
    assert.deepEqual(operation.items, ["Rome: day 1:2"]);
    assert.equal(operation.at, 1);
  });
});

describe("chosenPosition", () => {
  it("start, end or a whole number typed; anything else is not a position", () => {
    assert.equal(chosenPosition("start", ""), 1);
    assert.equal(chosenPosition("end", ""), null);
    assert.equal(chosenPosition("at", "4"), 4);
    for (const typed of ["0", "-1", "1.5", "", "x"]) assert.equal(chosenPosition("at", typed), undefined, typed);
  });
});
