// The timeline's layout, without the page: photos newest first, grouped
// by the day they were taken, each day a heading and then rows of tiles;
// the photos that record no date last, by the day they were imported.
// Only what is in view is drawn; this says where everything stands.

import { aspectOf, justify, nearestInRow, rowsBetween } from "../../common/justified-rows.js";

export { aspectOf, rowsBetween };

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/// The day a photo is grouped under: `2025-07-14` from its capture date,
/// else from its import time (`imported` says which); a date of a year or
/// a month alone stands as it is.
export function dayOf(photo) {
  if (photo.captured_at) return { key: photo.captured_at.slice(0, 10), imported: false };
  return { key: photo.imported_at.slice(0, 10), imported: true };
}

/// A day's heading: "Monday 14 July 2025", "July 2025", "1975", and
/// "No date · imported …" for photos that record no capture date.
export function dayLabel({ key, imported }) {
  const [year, month, day] = key.split("-").map(Number);
  let text = String(year);
  if (month && day) {
    const weekday = DAY_NAMES[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
    text = `${weekday} ${day} ${MONTH_NAMES[month - 1]} ${year}`;
  } else if (month) {
    text = `${MONTH_NAMES[month - 1]} ${year}`;
  }
  return imported ? `No date · imported ${text}` : text;
}

/// A month of the scrubber (`2025-07`, or a year alone) in words; the
/// photos that record no date come last, as the month "".
export function monthLabel(month) {
  if (!month) return "No date";
  const [year, number] = month.split("-").map(Number);
  return number ? `${MONTH_NAMES[number - 1].slice(0, 3)} ${year}` : String(year);
}

/// Where each heading and tile stands, for `photos` (in timeline order)
/// in justified rows (justified-rows.js) under headings `heading` pixels
/// tall; a day's last row keeps the target height rather than stretch.
/// Answers the rows, top to bottom, each photo's place (its row, left and
/// width), and the height of it all.
export function layOut(photos, { width, target, heading, gap }) {
  const rows = [];
  const places = new Array(photos.length);
  const aspectAt = (index) => aspectOf(photos[index]);
  let top = gap;
  let index = 0;
  while (index < photos.length) {
    const day = dayOf(photos[index]);
    rows.push({ kind: "heading", top, height: heading, label: dayLabel(day), first: index });
    top += heading;
    let end = index;
    while (end < photos.length && dayOf(photos[end]).key === day.key && dayOf(photos[end]).imported === day.imported) end++;
    top = justify(aspectAt, index, end, { width, target, gap }, top, rows, places);
    index = end;
  }
  return { rows, places, height: top + gap };
}

/// The photo an arrow key goes to from `index`: along the timeline
/// (Left, Right), to the photo of the row above or below whose middle is
/// nearest (Up, Down), or the first or last (Home, End); the same index
/// at an edge.
export function stepFrom(index, key, { rows, places }, count) {
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  if (key === "ArrowLeft") return Math.max(0, index - 1);
  if (key === "ArrowRight") return Math.min(count - 1, index + 1);
  const place = places[index];
  if (!place) return index;
  const direction = key === "ArrowDown" ? 1 : key === "ArrowUp" ? -1 : 0;
  if (!direction) return index;
  const middle = place.left + place.width / 2;
  for (let row = place.row + direction; row >= 0 && row < rows.length; row += direction) {
    if (rows[row].kind === "tiles") return nearestInRow(rows[row], middle, (at) => places[at]);
  }
  return index;
}

/// A photo's place in the timeline's order (newest first): its capture
/// date, "" for none (below every date: the undated come last, the last
/// imported first), as the server sorts and its cursors say.
function timeKey(photo) {
  return photo.captured_at ?? "";
}

/// The cursor that reads on just after `photo` (the API's `after`).
export function cursorOf(photo) {
  return `${photo.photo_id}@${timeKey(photo)}`;
}

/// Whether `a` stands after `b` in the timeline: older, or as old with a
/// smaller id (the server's order, both descending).
export function comesAfter(a, b) {
  const [first, second] = [timeKey(a), timeKey(b)];
  return first < second || (first === second && a.photo_id < b.photo_id);
}

/// The photos read so far, with `page` read again in place of what it
/// covers: the photos after the one at `from - 1` (or from where the
/// timeline starts, for 0), as many as were asked. The photos above `from`
/// and those after the page's last stay as they were read, and are
/// returned as stale: `fresh` is where the page stands among the photos,
/// `staleEnd` where the stale photos below it end. A photo the page holds
/// is dropped from what stays, wherever it was; when the page reached the
/// end of what the search finds (`pageHasNext` false), nothing stays below.
export function mergeWindow(photos, from, page, pageHasNext) {
  const read = new Set(page.map((photo) => photo.photo_id));
  const above = photos.slice(0, from).filter((photo) => !read.has(photo.photo_id));
  const last = page[page.length - 1];
  const below = pageHasNext && last ? photos.slice(from).filter((photo) => !read.has(photo.photo_id) && comesAfter(photo, last)) : [];
  return {
    photos: [...above, ...page, ...below],
    fresh: { from: above.length, to: above.length + page.length },
    staleEnd: above.length + page.length + below.length,
  };
}
