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

/// A photo's shape as seen, width over height: 1 when it is not known,
/// and held to 1:4…4:1, so that a panorama does not take a row alone.
export function aspectOf(photo) {
  const ratio = photo.display_width && photo.display_height ? photo.display_width / photo.display_height : 1;
  return Math.min(4, Math.max(0.25, ratio));
}

/// Where each heading and tile stands, for `photos` (in timeline order)
/// in justified rows: each photo at its own shape, edge to edge, the rows
/// about `target` pixels tall and filling `width` (a day's last row keeps
/// the target height rather than stretch), under headings `heading`
/// pixels tall. Answers the rows, top to bottom, each photo's place
/// (its row, left and width), and the height of it all.
export function layOut(photos, { width, target, heading, gap }) {
  const rows = [];
  const places = new Array(photos.length);
  const room = Math.max(1, width - gap);
  let top = gap;
  let index = 0;
  // A full row's last photo takes what rounding left, so that the row ends flush.
  const closeRow = (first, end, height, full) => {
    const row = rows.length;
    let left = gap;
    for (let at = first; at < end; at++) {
      const tileWidth = Math.max(1, Math.round(aspectOf(photos[at]) * height));
      places[at] = { row, left, width: full && at === end - 1 ? Math.max(1, room - left) : tileWidth };
      left += places[at].width + gap;
    }
    rows.push({ kind: "tiles", top, height, first, count: end - first });
    top += height + gap;
  };
  while (index < photos.length) {
    const day = dayOf(photos[index]);
    rows.push({ kind: "heading", top, height: heading, label: dayLabel(day), first: index });
    top += heading;
    let end = index;
    while (end < photos.length && dayOf(photos[end]).key === day.key && dayOf(photos[end]).imported === day.imported) end++;
    let first = index;
    let aspects = 0;
    for (let at = index; at < end; at++) {
      aspects += aspectOf(photos[at]);
      // The row's height if it ended here, filling the width exactly.
      const height = (room - gap * (at - first + 1)) / aspects;
      if (height <= target) {
        closeRow(first, at + 1, Math.max(1, Math.floor(height)), true);
        first = at + 1;
        aspects = 0;
      }
    }
    if (first < end) closeRow(first, end, Math.round(target), false);
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
    if (rows[row].kind !== "tiles") continue;
    let best = rows[row].first;
    for (let at = rows[row].first; at < rows[row].first + rows[row].count; at++) {
      const distance = Math.abs(places[at].left + places[at].width / 2 - middle);
      if (distance < Math.abs(places[best].left + places[best].width / 2 - middle)) best = at;
    }
    return best;
  }
  return index;
}
