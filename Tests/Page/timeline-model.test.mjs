// The timeline's days, justified rows and arrow steps (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { aspectOf, comesAfter, cursorOf, dayLabel, dayOf, layOut, mergeWindow, monthLabel, rowsBetween, stepFrom } from "../../Sources/AlbumsServer/Page/organizer/model/timeline-model.js";

const photo = (id, captured, [width, height] = [400, 300], imported = "2026-11-26T10:00:00.000Z") =>
  ({ photo_id: id, captured_at: captured, imported_at: imported, display_width: width, display_height: height });

describe("days", () => {
  it("a photo's day is its capture date's, else its import's, said in words; the undated are said to have no date", () => {
    assert.deepEqual(dayOf(photo(1, "2025-07-14T09:12:00+02:00")), { key: "2025-07-14", imported: false });
    assert.deepEqual(dayOf(photo(1, null)), { key: "2026-11-26", imported: true });
    assert.equal(dayLabel({ key: "2025-07-14", imported: false }), "Monday 14 July 2025");
    assert.equal(dayLabel({ key: "2026-11-26", imported: true }), "No date · imported Thursday 26 November 2026");
    assert.equal(dayLabel({ key: "1975", imported: false }), "1975");
    assert.equal(dayLabel({ key: "1975-06", imported: false }), "June 1975");
    assert.equal(monthLabel("2025-07"), "Jul 2025");
    assert.equal(monthLabel("1975"), "1975");
    assert.equal(monthLabel(""), "No date");
  });

  it("a shape is width over height as seen, 1 unknown, held to 1:4…4:1", () => {
    assert.equal(aspectOf(photo(1, null, [400, 300])), 4 / 3);
    assert.equal(aspectOf({ display_width: null, display_height: null }), 1);
    assert.equal(aspectOf(photo(1, null, [9000, 100])), 4);
    assert.equal(aspectOf(photo(1, null, [100, 9000])), 0.25);
  });
});

describe("layOut: justified rows", () => {
  // Day one: three landscapes and a portrait; day two: one square; then one undated.
  const photos = [photo(1, "2025-07-15T10:00:00"), photo(2, "2025-07-15T09:00:00"), photo(3, "2025-07-15T08:30:00", [300, 400]),
    photo(4, "2025-07-15T08:00:00"), photo(5, "2025-07-14T10:00:00", [500, 500]), photo(6, null)];
  const options = { width: 604, target: 200, heading: 40, gap: 4 };
  const layout = layOut(photos, options);

  it("a heading for each day, then rows of photos at their shapes", () => {
    assert.deepEqual(layout.rows.map((row) => row.kind === "heading" ? row.label : `${row.first}+${row.count}`),
      ["Tuesday 15 July 2025", "0+3", "3+1", "Monday 14 July 2025", "4+1", "No date · imported Thursday 26 November 2026", "5+1"]);
    // Each photo keeps its shape: width over row height as its own, to a pixel.
    for (const [index, place] of layout.places.entries()) {
      const row = layout.rows[place.row];
      if (index !== row.first + row.count - 1) assert.ok(Math.abs(place.width / row.height - aspectOf(photos[index])) < 0.02, `photo ${index}`);
    }
  });

  it("a full row fills the width edge to edge, no taller than the target; a day's last row keeps the target", () => {
    const full = layout.rows[1];
    assert.ok(full.height <= 200 && full.height > 120, `${full.height}`);
    const last = layout.places[full.first + full.count - 1];
    assert.equal(last.left + last.width, 600, "flush with the right edge (the gap kept)");
    assert.equal(layout.rows[2].height, 200);
    assert.ok(layout.places[3].left + layout.places[3].width < 600, "not stretched");
    assert.deepEqual(layout.rows.map((row) => row.top), [4, 44, 44 + full.height + 4, 44 + full.height + 4 + 204, 44 + full.height + 4 + 244,
      44 + full.height + 4 + 448, 44 + full.height + 4 + 488]);
    assert.equal(layout.height, 44 + full.height + 4 + 488 + 204 + 4);
  });

  it("a smaller target puts more photos in lower rows: the density", () => {
    const dense = layOut(photos, { ...options, target: 100 });
    assert.ok(dense.rows[1].count > layout.rows[1].count && dense.rows[1].height < layout.rows[1].height);
    assert.ok(dense.height < layout.height);
  });

  it("finds the rows in view, and steps with the arrows to the nearest photo above or below", () => {
    assert.deepEqual(rowsBetween(layout.rows, 0, 10), [0]);
    assert.deepEqual(rowsBetween(layout.rows, 100000, 100010), []);
    assert.equal(stepFrom(2, "ArrowDown", layout, 6), 3, "down to the photo below");
    assert.equal(stepFrom(3, "ArrowDown", layout, 6), 4, "down into the next day, past its heading");
    assert.equal(stepFrom(3, "ArrowUp", layout, 6), 0, "up to the photo whose middle is nearest");
    assert.equal(stepFrom(0, "ArrowUp", layout, 6), 0, "the top stays");
    assert.equal(stepFrom(5, "ArrowRight", layout, 6), 5, "the end stays");
    assert.equal(stepFrom(2, "Home", layout, 6), 0);
    assert.equal(stepFrom(2, "End", layout, 6), 5);
  });
});

describe("reading a window again after a change", () => {
  // Newest first: photo n (below 28) taken on 28 - n December 2025, so ids grow as the days go back.
  const timeline = (ids) => ids.map((id) => ({ photo_id: id, captured_at: `2025-${String(12 - Math.floor(id / 28)).padStart(2, "0")}-${String(28 - (id % 28)).padStart(2, "0")}`, imported_at: "2026-01-01" }));
  const ids = (photos) => photos.map((each) => each.photo_id);

  it("orders and cursors as the server does: by capture date, else import time, then id, both descending", () => {
    const older = { photo_id: 9, captured_at: "2024-05-01", imported_at: "2026-01-01" };
    const newer = { photo_id: 3, captured_at: "2025-05-01", imported_at: "2026-01-01" };
    const undated = { photo_id: 4, captured_at: null, imported_at: "2026-02-01T10:00:00Z" };
    assert.ok(comesAfter(older, newer) && !comesAfter(newer, older));
    assert.ok(comesAfter(undated, newer) && comesAfter(undated, older), "an undated photo comes after every dated one");
    assert.ok(comesAfter({ photo_id: 2, captured_at: null }, undated) && !comesAfter(undated, { photo_id: 2, captured_at: null }), "the undated: the smaller id after");
    assert.ok(comesAfter({ photo_id: 2, captured_at: "2025-05-01" }, newer), "as old, the smaller id after");
    assert.equal(cursorOf(undated), "4@");
  });

  it("a page read again in the middle takes the place of what it covers; above and below stay, said stale", () => {
    const before = timeline([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Read again after photo 3 (from = 3), four asked: 5 went, 11 (taken between 6 and 7) came.
    const page = timeline([4, 6]).concat([{ photo_id: 11, captured_at: "2025-12-21T12:00", imported_at: "2026-01-01" }], timeline([7]));
    assert.ok(comesAfter(page[2], page[1]) && comesAfter(page[3], page[2]), "the page in the server's order");
    const merged = mergeWindow(before, 3, page, true);
    assert.deepEqual(ids(merged.photos), [1, 2, 3, 4, 6, 11, 7, 8, 9, 10]);
    assert.deepEqual(merged.fresh, { from: 3, to: 7 });
    assert.equal(merged.staleEnd, 10);
  });

  it("at the end of what is found nothing stays below, and a photo read again is not kept twice", () => {
    const before = timeline([1, 2, 3, 4, 5, 6]);
    const merged = mergeWindow(before, 2, timeline([3, 4, 6]), false);
    assert.deepEqual(ids(merged.photos), [1, 2, 3, 4, 6]);
    assert.equal(merged.staleEnd, merged.fresh.to);
    // A photo above whose date changed into the page stands once, where the page says.
    const moved = mergeWindow(before, 2, timeline([3, 1, 4]), true);
    assert.deepEqual(ids(moved.photos).filter((id) => id === 1).length, 1);
    assert.deepEqual(moved.fresh, { from: 1, to: 4 });
  });

  it("from the start, a page that covers everything leaves nothing stale", () => {
    const before = timeline([1, 2, 3]);
    const merged = mergeWindow(before, 0, timeline([1, 2, 3, 4]), true);
    assert.deepEqual(ids(merged.photos), [1, 2, 3, 4]);
    assert.deepEqual([merged.fresh.from, merged.fresh.to, merged.staleEnd], [0, 4, 4]);
  });
});
