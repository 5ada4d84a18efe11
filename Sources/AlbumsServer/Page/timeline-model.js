// The timeline's layout, without the page: photos newest first, grouped
// by the day they were taken (by the day they were imported where they
// record none), each day a heading and then rows of tiles. Only what is
// in view is drawn; this says where everything stands.

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
/// "Imported …" for photos that record no capture date.
export function dayLabel({ key, imported }) {
  const [year, month, day] = key.split("-").map(Number);
  let text = String(year);
  if (month && day) {
    const weekday = DAY_NAMES[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
    text = `${weekday} ${day} ${MONTH_NAMES[month - 1]} ${year}`;
  } else if (month) {
    text = `${MONTH_NAMES[month - 1]} ${year}`;
  }
  return imported ? `Imported ${text}` : text;
}

/// A month of the scrubber (`2025-07`, or a year alone) in words.
export function monthLabel(month) {
  const [year, number] = month.split("-").map(Number);
  return number ? `${MONTH_NAMES[number - 1].slice(0, 3)} ${year}` : String(year);
}

/// Where each heading and tile stands, for `photos` (in timeline order)
/// laid out `columns` across with square cells of `cell` pixels (gap
/// included) under headings `heading` pixels tall. Answers the rows, top
/// to bottom, and each photo's row and column.
export function layOut(photos, { columns, cell, heading, gap }) {
  const rows = [];
  const places = new Array(photos.length);
  let top = gap;
  let index = 0;
  while (index < photos.length) {
    const day = dayOf(photos[index]);
    rows.push({ kind: "heading", top, height: heading, label: dayLabel(day), first: index });
    top += heading;
    let end = index;
    while (end < photos.length && dayOf(photos[end]).key === day.key && dayOf(photos[end]).imported === day.imported) end++;
    for (let start = index; start < end; start += columns) {
      const row = rows.length;
      const count = Math.min(columns, end - start);
      rows.push({ kind: "tiles", top, height: cell, first: start, count });
      for (let column = 0; column < count; column++) places[start + column] = { row, column };
      top += cell;
    }
    index = end;
  }
  return { rows, places, height: top + gap };
}

/// The rows that meet [top, bottom): a binary search, as rows are in order.
export function rowsBetween(rows, top, bottom) {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows[middle].top + rows[middle].height <= top) low = middle + 1; else high = middle;
  }
  const found = [];
  for (let index = low; index < rows.length && rows[index].top < bottom; index++) found.push(index);
  return found;
}

/// The photo an arrow key goes to from `index`: along the row (Left,
/// Right), to the nearest column of the row of tiles above or below (Up,
/// Down), or the first or last (Home, End); the same index at an edge.
export function stepFrom(index, key, { rows, places }, count) {
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  if (key === "ArrowLeft") return Math.max(0, index - 1);
  if (key === "ArrowRight") return Math.min(count - 1, index + 1);
  const place = places[index];
  if (!place) return index;
  const direction = key === "ArrowDown" ? 1 : key === "ArrowUp" ? -1 : 0;
  if (!direction) return index;
  for (let row = place.row + direction; row >= 0 && row < rows.length; row += direction) {
    if (rows[row].kind !== "tiles") continue;
    return rows[row].first + Math.min(place.column, rows[row].count - 1);
  }
  return index;
}
