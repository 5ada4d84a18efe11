// Justified rows, the one layout of photos on the page (the timeline's
// days and the albums alike): each photo at its own shape, side by side,
// each row as tall as it must be to fill the width edge to edge and no
// taller than the size the zoom asks for. No DOM here: the node tests
// hold it.

/// A photo's shape as seen, width over height: 1 when it is not known,
/// and held to 1:4…4:1, so that a panorama does not take a row alone.
export function aspectOf(photo) {
  const ratio = photo.display_width && photo.display_height ? photo.display_width / photo.display_height : 1;
  return Math.min(4, Math.max(0.25, ratio));
}

/// A run that does not end the list (an album's chunk) leaves no short
/// last row: its last two rows are made again as the one or two full rows
/// whose heights stray least from the target. A run of one short row
/// stretches to the width if that keeps it at most STRETCH times as tall.
const STRETCH = 2;

/// Lays out the photos of [first, end) in rows from `top`, their shapes
/// from `aspectAt(index)`, `width` wide with `gap` around each photo and
/// rows about `target` tall. Appends `{ top, height, first, count }` for
/// each row to `rows`, writes each photo's `{ row, left, width }` (`row`
/// indexing `rows`) at `places[index - base]`, and answers the top below
/// the last row. The last row keeps the target height (`ending: "short"`,
/// where a day or an album ends) or is fitted to the width as said above
/// (`ending: "fitted"`).
export function justify(aspectAt, first, end, { width, target, gap }, top, rows, places, { base = 0, ending = "short" } = {}) {
  const room = Math.max(1, width - gap);
  // The height at which the photos of [from, to) fill the width exactly.
  const fillHeight = (from, to) => {
    let aspects = 0;
    for (let at = from; at < to; at++) aspects += aspectAt(at);
    return (room - gap * (to - from)) / aspects;
  };
  // A full row's last photo takes what rounding left, so that the row ends flush.
  const closeRow = (from, to, height, full) => {
    const row = rows.length;
    let left = gap;
    for (let at = from; at < to; at++) {
      const tileWidth = Math.max(1, Math.round(aspectAt(at) * height));
      const place = { row, left, width: full && at === to - 1 ? Math.max(1, room - left) : tileWidth };
      places[at - base] = place;
      left += place.width + gap;
    }
    rows.push({ kind: "tiles", top, height, first: from, count: to - from });
    top += height + gap;
  };
  const firstRow = rows.length;
  let from = first;
  let aspects = 0;
  for (let at = first; at < end; at++) {
    aspects += aspectAt(at);
    const height = (room - gap * (at - from + 1)) / aspects;
    if (height <= target) {
      closeRow(from, at + 1, Math.max(1, Math.floor(height)), true);
      from = at + 1;
      aspects = 0;
    }
  }
  if (from === end) return top;
  if (ending === "fitted") {
    if (rows.length === firstRow) {
      const stretched = fillHeight(from, end);
      if (stretched <= target * STRETCH) { closeRow(from, end, Math.max(1, Math.floor(stretched)), true); return top; }
    } else {
      // The previous row and the short one, as one row or split anywhere in two.
      const previous = rows.pop();
      top = previous.top;
      const stray = (height) => Math.abs(Math.log(height / target));
      let best = { split: end, worst: stray(fillHeight(previous.first, end)) };
      for (let split = previous.first + 1; split < end; split++) {
        const worst = Math.max(stray(fillHeight(previous.first, split)), stray(fillHeight(split, end)));
        if (worst < best.worst) best = { split, worst };
      }
      closeRow(previous.first, best.split, Math.max(1, Math.floor(fillHeight(previous.first, best.split))), true);
      if (best.split < end) closeRow(best.split, end, Math.max(1, Math.floor(fillHeight(best.split, end))), true);
      return top;
    }
  }
  closeRow(from, end, Math.round(target), false);
  return top;
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

/// Of the photos of `row`, the one whose middle is nearest `x`.
export function nearestInRow(row, x, placeAt) {
  let best = row.first;
  let distance = Infinity;
  for (let at = row.first; at < row.first + row.count; at++) {
    const place = placeAt(at);
    const away = Math.abs(place.left + place.width / 2 - x);
    if (away < distance) { best = at; distance = away; }
  }
  return best;
}
