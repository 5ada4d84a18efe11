// The timeline's days, rows and arrow steps (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dayLabel, dayOf, layOut, monthLabel, rowsBetween, stepFrom } from "../../Sources/AlbumsServer/Page/timeline-model.js";

const photo = (id, captured, imported = "2026-11-26T10:00:00.000Z") => ({ photo_id: id, captured_at: captured, imported_at: imported });

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
});

describe("layOut", () => {
  const photos = [photo(1, "2025-07-15T10:00:00"), photo(2, "2025-07-15T09:00:00"), photo(3, "2025-07-15T08:00:00"),
    photo(4, "2025-07-14T10:00:00"), photo(5, null)];
  const layout = layOut(photos, { columns: 2, cell: 100, heading: 40, gap: 4 });

  it("a heading for each day, then its photos in rows of the columns", () => {
    assert.deepEqual(layout.rows.map((row) => row.kind === "heading" ? row.label : `${row.first}+${row.count}`),
      ["Tuesday 15 July 2025", "0+2", "2+1", "Monday 14 July 2025", "3+1", "Imported Thursday 26 November 2026", "4+1"]);
    assert.deepEqual(layout.rows.map((row) => row.top), [4, 44, 144, 244, 284, 384, 424]);
    assert.equal(layout.height, 528);
    assert.deepEqual(layout.places[2], { row: 2, column: 0 });
  });

  it("finds the rows in view, and steps with the arrows across days", () => {
    assert.deepEqual(rowsBetween(layout.rows, 150, 290), [2, 3, 4]);
    assert.deepEqual(rowsBetween(layout.rows, 0, 10), [0]);
    assert.deepEqual(rowsBetween(layout.rows, 600, 700), []);
    assert.equal(stepFrom(1, "ArrowDown", layout, 5), 2, "down to the nearest column of the next row");
    assert.equal(stepFrom(2, "ArrowDown", layout, 5), 3, "down into the next day, past its heading");
    assert.equal(stepFrom(3, "ArrowUp", layout, 5), 2);
    assert.equal(stepFrom(0, "ArrowUp", layout, 5), 0, "the top stays");
    assert.equal(stepFrom(4, "ArrowRight", layout, 5), 4, "the end stays");
    assert.equal(stepFrom(2, "Home", layout, 5), 0);
    assert.equal(stepFrom(2, "End", layout, 5), 4);
  });
});
