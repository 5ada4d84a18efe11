// The timeline's days, justified rows and arrow steps (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { aspectOf, dayLabel, dayOf, layOut, monthLabel, rowsBetween, stepFrom } from "../../Sources/AlbumsServer/Page/timeline-model.js";

const photo = (id, captured, [width, height] = [400, 300], imported = "2026-11-26T10:00:00.000Z") =>
  ({ photo_id: id, captured_at: captured, imported_at: imported, display_width: width, display_height: height });

describe("days", () => {
  it("a photo's day is its capture date's, else its import's, said in words", () => {
    assert.deepEqual(dayOf(photo(1, "2025-07-14T09:12:00+02:00")), { key: "2025-07-14", imported: false });
    assert.deepEqual(dayOf(photo(1, null)), { key: "2026-11-26", imported: true });
    assert.equal(dayLabel({ key: "2025-07-14", imported: false }), "Monday 14 July 2025");
    assert.equal(dayLabel({ key: "2026-11-26", imported: true }), "Imported Thursday 26 November 2026");
    assert.equal(dayLabel({ key: "1975", imported: false }), "1975");
    assert.equal(dayLabel({ key: "1975-06", imported: false }), "June 1975");
    assert.equal(monthLabel("2025-07"), "Jul 2025");
    assert.equal(monthLabel("1975"), "1975");
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
      ["Tuesday 15 July 2025", "0+3", "3+1", "Monday 14 July 2025", "4+1", "Imported Thursday 26 November 2026", "5+1"]);
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
