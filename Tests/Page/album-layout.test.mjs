// An album in justified rows, laid out in chunks of which only some are
// read (node --test): every item has one place, rows fill the width, the
// geometry answers agree with each other, and unread chunks are estimated.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AlbumLayout, CHUNK } from "../../Sources/AlbumsServer/Page/organizer/model/album-layout.js";
import { aspectOf, justify } from "../../Sources/AlbumsServer/Page/common/justified-rows.js";

/// A repeatable mix of landscapes, portraits, squares and a panorama.
const shapes = [1.5, 0.667, 1, 1.333, 0.75, 3.2, 1.5, 1.5];
const shapeAt = (index) => shapes[(index * 7 + (index >> 3)) % shapes.length];

function layout({ count, read = null, width = 1000, target = 180, estimate = 1.5 }) {
  const isRead = read ?? (() => true);
  const readIndexes = [];
  for (let index = 0; index < Math.min(count, 5 * CHUNK); index++) if (isRead(index)) readIndexes.push(index);
  return new AlbumLayout({ count, width, target, gap: 4, estimate, readIndexes,
    aspectAt: (index) => (isRead(index) ? shapeAt(index) : null) });
}

describe("justify", () => {
  it("a run that does not end the album leaves no short last row: its last two rows are made again, full", () => {
    for (let count = 1; count < 40; count++) {
      const rows = [];
      const places = [];
      justify(shapeAt, 0, count, { width: 1000, target: 180, gap: 4 }, 0, rows, places, { ending: "fitted" });
      const last = rows[rows.length - 1];
      const end = places[count - 1];
      const flush = end.left + end.width === 996;
      // One photo alone, too wide to stretch or join, is the only short row allowed.
      assert.ok(flush || rows.length === 1, `${count} photos: last row ends at ${end.left + end.width}`);
      assert.ok(!flush || (last.height <= 180 * 2 && last.height >= 180 / 2), `${count}: height ${last.height}`);
    }
  });
});

describe("an album laid out in chunks", () => {
  it("every item has a place inside the width; rows follow one another down", () => {
    const album = layout({ count: 3 * CHUNK + 17 });
    let previous = null;
    for (let index = 0; index < album.count; index++) {
      const frame = album.frame(index);
      assert.ok(frame.left >= 4 && frame.left + frame.width <= 996, `item ${index} inside`);
      if (previous) {
        const sameRow = frame.top === previous.top;
        assert.ok(sameRow ? frame.left > previous.left : frame.top >= previous.top + previous.height, `item ${index} after ${index - 1}`);
      }
      previous = frame;
    }
    const last = album.frame(album.count - 1);
    assert.equal(album.height, last.top + last.height + 8, "the album ends a gap below its last row");
  });

  it("photos keep their shape, each full row ends flush with the right edge", () => {
    const album = layout({ count: 2 * CHUNK });
    for (let c = 0; c < 2; c++) {
      for (const row of album.chunk(c).rows) {
        for (let at = row.first; at < row.first + row.count - 1; at++) {
          assert.ok(Math.abs(album.frame(at).width / row.height - shapeAt(at)) < 0.02, `item ${at}`);
        }
        const end = album.frame(row.first + row.count - 1);
        if (row.first + row.count < album.count) assert.equal(end.left + end.width, 996, `row at ${row.first}`);
      }
    }
  });

  it("between, indexAt, slotAt and frame agree", () => {
    const album = layout({ count: 2 * CHUNK + 5 });
    for (const index of [0, 1, 17, CHUNK - 1, CHUNK, CHUNK + 3, 2 * CHUNK + 4]) {
      const frame = album.frame(index);
      const [first, last] = album.between(frame.top + 1, frame.top + 2);
      assert.ok(first <= index && index < last, `${index} in its row's range`);
      assert.equal(album.indexAt(frame.left + 2, frame.top + 2), index);
      assert.equal(album.slotAt(frame.left + 2, frame.top + 2), index, "the left half: before it");
      assert.equal(album.slotAt(frame.left + frame.width - 2, frame.top + 2), index + 1, "the right half: after it");
      const marker = album.slotFrame(index);
      assert.equal(marker.left, frame.left - 2);
      assert.equal(marker.top, frame.top);
    }
    assert.equal(album.slotAt(5000, album.height), album.count, "beyond the end: after the last");
    assert.equal(album.slotFrame(album.count).left, album.frame(album.count - 1).left + album.frame(album.count - 1).width + 2);
  });

  it("arrows step along, and up and down to the nearest photo of the next row, across chunks", () => {
    const album = layout({ count: 2 * CHUNK });
    assert.equal(album.step(0, "ArrowLeft"), 0);
    assert.equal(album.step(0, "ArrowRight"), 1);
    assert.equal(album.step(5, "End"), album.count - 1);
    assert.equal(album.step(5, "Home"), 0);
    assert.equal(album.step(0, "ArrowUp"), 0, "nothing above the first row");
    const lastOfChunk = CHUNK - 1;
    const below = album.step(lastOfChunk, "ArrowDown");
    assert.ok(below >= CHUNK, "down from a chunk's last row lands in the next chunk");
    assert.equal(album.frame(below).top, album.tops[1] + album.chunk(1).rows[0].top);
    // Down then up comes back to a photo of the first row, the one under the same spot.
    for (let index = 0; index < album.chunk(0).rows[0].count; index++) {
      const down = album.step(index, "ArrowDown");
      const frame = album.frame(index);
      const downFrame = album.frame(down);
      assert.ok(downFrame.left <= frame.left + frame.width && frame.left <= downFrame.left + downFrame.width, `${index} ↓ ${down} overlaps`);
    }
  });

  it("a lifted photo's slot moves by gaps: along, up and down rows, to either end", () => {
    const album = layout({ count: CHUNK + 10 });
    assert.equal(album.slotStep(0, "ArrowLeft"), 0);
    assert.equal(album.slotStep(album.count, "ArrowRight"), album.count);
    assert.equal(album.slotStep(3, "End"), album.count);
    const secondRow = album.chunk(0).rows[1];
    assert.equal(album.slotStep(0, "ArrowDown"), secondRow.first, "from the first gap to the first gap of the next row");
    assert.equal(album.slotStep(secondRow.first, "ArrowUp"), 0);
    assert.equal(album.slotStep(album.count - 1, "ArrowDown"), album.count, "down from the last row: the end");
  });

  it("unread chunks stand at an estimated height; a million items lay out at once", () => {
    const million = layout({ count: 1_000_000, read: (index) => index < 300 });
    assert.ok(million.height > 1_000_000 / 10 * 180, "tall enough for a million photos");
    const index = 777_777;
    const frame = million.frame(index);
    assert.equal(million.indexAt(frame.left + 1, frame.top + 1), index);
    const [first, last] = million.between(frame.top, frame.top + 900);
    assert.ok(first <= index && last > index && last - first < 200, `${first}…${last}`);
    // An unread chunk is the same whichever it is.
    assert.equal(million.tops[10] - million.tops[9], million.tops[100] - million.tops[99]);
  });

  it("reading a chunk changes only its own height: the ones before stand where they stood", () => {
    const before = layout({ count: 5 * CHUNK, read: (index) => index < CHUNK });
    const after = layout({ count: 5 * CHUNK, read: (index) => index < 3 * CHUNK });
    assert.equal(after.tops[1], before.tops[1]);
    assert.equal(after.frame(CHUNK - 1).top, before.frame(CHUNK - 1).top);
    assert.equal(aspectOf({ display_width: 600, display_height: 400 }), 1.5);
  });
});
