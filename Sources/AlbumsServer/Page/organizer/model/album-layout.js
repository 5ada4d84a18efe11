// An album's photos in justified rows (justified-rows.js), as the
// timeline lays out its days, for an album of any length of which only a
// window is read (item-window.js). A justified row needs the shapes of
// the photos before it, and a million shapes are not read to draw one
// screen: the album is laid out in chunks of CHUNK items, each on its own
// from its first item, its unread items at an estimated shape. A chunk
// with nothing read is a block of estimated rows; where to draw index i,
// or what stands at a point, is a binary search over the chunks' tops and
// then over one chunk's rows. Reading more of a chunk lays it out again;
// the pane keeps the photo in view where it was (pane.js). No DOM here.

import { justify, nearestInRow, rowsBetween } from "../../common/justified-rows.js";

/// Items laid out together: rows break at each chunk's end.
export const CHUNK = 240;

export class AlbumLayout {
  /// `aspectAt(index)` is the shape of the item at `index`, or null while
  /// it is not read (then `estimate`); `readIndexes` lists the indexes read.
  constructor({ count, width, target, gap, aspectAt, readIndexes = [], estimate = 1.5 }) {
    this.count = count;
    this.options = { width, target, gap };
    this.gap = gap;
    this.aspectAt = (index) => aspectAt(index) ?? estimate;
    this.chunks = new Map();    // chunk number → its rows and places
    const chunkCount = Math.ceil(count / CHUNK);
    const read = new Set();
    for (const index of readIndexes) if (index < count) read.add(Math.floor(index / CHUNK));
    // Chunks with nothing read are all alike: one estimated height for a full one.
    const unread = (c) => {
      if (c === chunkCount - 1) return this.chunk(c).height;   // the album's end: its last row is left short
      this.unreadHeight ??= this.chunk(c).height;
      return this.unreadHeight;
    };
    this.tops = new Float64Array(chunkCount + 1);
    this.tops[0] = gap;
    for (let c = 0; c < chunkCount; c++) this.tops[c + 1] = this.tops[c] + (read.has(c) ? this.chunk(c).height : unread(c));
  }

  /// The height of the whole album as drawn.
  get height() { return this.tops[this.tops.length - 1] + this.gap; }

  /// Chunk `c` laid out: its rows (tops from the chunk's own top) and places.
  chunk(c) {
    let laid = this.chunks.get(c);
    if (!laid) {
      const first = c * CHUNK;
      const end = Math.min(this.count, first + CHUNK);
      const rows = [];
      const places = new Array(end - first);
      const height = justify(this.aspectAt, first, end, this.options, 0, rows, places,
        { base: first, ending: end === this.count ? "short" : "fitted" });
      laid = { rows, places, height };
      this.chunks.set(c, laid);
    }
    return laid;
  }

  /// The chunk drawn at `y` (the first or last beyond the ends).
  chunkAt(y) {
    let low = 0;
    let high = this.tops.length - 2;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.tops[middle] <= y) low = middle; else high = middle - 1;
    }
    return Math.max(0, low);
  }

  /// Where the item at `index` is drawn: `{ left, top, width, height }`.
  frame(index) {
    const c = Math.floor(index / CHUNK);
    const { rows, places } = this.chunk(c);
    const place = places[index - c * CHUNK];
    const row = rows[place.row];
    return { left: place.left, top: this.tops[c] + row.top, width: place.width, height: row.height };
  }

  /// The items of the rows that meet [top, bottom), as [first, last).
  between(top, bottom) {
    if (!this.count) return [0, 0];
    let first = null;
    let last = 0;
    for (let c = this.chunkAt(top); c < this.tops.length - 1 && this.tops[c] < bottom; c++) {
      const { rows } = this.chunk(c);
      for (const at of rowsBetween(rows, top - this.tops[c], bottom - this.tops[c])) {
        first ??= rows[at].first;
        last = rows[at].first + rows[at].count;
      }
    }
    return first === null ? [0, 0] : [first, last];
  }

  /// The row drawn at `y`, or the nearest one: `{ c, r }`.
  rowAt(y) {
    const c = this.chunkAt(y);
    const { rows } = this.chunk(c);
    const local = y - this.tops[c];
    let r = 0;
    while (r + 1 < rows.length && rows[r + 1].top <= local) r++;
    return { c, r };
  }

  row({ c, r }) { return this.chunk(c).rows[r]; }

  /// The row of the item at `index`.
  rowOf(index) {
    const c = Math.floor(index / CHUNK);
    return { c, r: this.chunk(c).places[index - c * CHUNK].row };
  }

  /// The row above (`direction` -1) or below (1), across chunks; null at an end.
  nextRow({ c, r }, direction) {
    const rows = this.chunk(c).rows;
    if (r + direction >= 0 && r + direction < rows.length) return { c, r: r + direction };
    const other = c + direction;
    if (other < 0 || other >= this.tops.length - 1) return null;
    return { c: other, r: direction > 0 ? 0 : this.chunk(other).rows.length - 1 };
  }

  /// The place of the item at `index` in its chunk's row.
  placeAt = (index) => {
    const c = Math.floor(index / CHUNK);
    return this.chunk(c).places[index - c * CHUNK];
  };

  /// The item under (x, y), or the nearest one, in content coordinates.
  indexAt(x, y) {
    if (!this.count) return 0;
    const row = this.row(this.rowAt(y));
    for (let at = row.first; at < row.first + row.count; at++) {
      const place = this.placeAt(at);
      if (x < place.left + place.width + this.gap / 2) return at;
    }
    return row.first + row.count - 1;
  }

  /// The insertion slot (0 … count) nearest (x, y): before the first
  /// photo of the row under it whose middle is right of x, else after the row.
  slotAt(x, y) {
    if (!this.count) return 0;
    const row = this.row(this.rowAt(y));
    for (let at = row.first; at < row.first + row.count; at++) {
      const place = this.placeAt(at);
      if (x < place.left + place.width / 2) return at;
    }
    return row.first + row.count;
  }

  /// Where a slot's marker stands: the gap before the item at `slot`, or
  /// after the last item when `slot` is the count (or `after` says to
  /// mark the gap after the item before it, at the end of its row).
  slotFrame(slot, { after = false } = {}) {
    if (!this.count) return { left: this.gap / 2, top: this.gap, height: this.options.target };
    if (slot > 0 && (after || slot >= this.count)) {
      const frame = this.frame(slot - 1);
      return { left: frame.left + frame.width + this.gap / 2, top: frame.top, height: frame.height };
    }
    const frame = this.frame(slot);
    return { left: frame.left - this.gap / 2, top: frame.top, height: frame.height };
  }

  /// The item an arrow key goes to from `index`: along the album (Left,
  /// Right), to the item of the row above or below whose middle is nearest
  /// (Up, Down), or the first or last (Home, End); the same at an edge.
  step(index, key) {
    if (key === "Home") return 0;
    if (key === "End") return this.count - 1;
    if (key === "ArrowLeft") return Math.max(0, index - 1);
    if (key === "ArrowRight") return Math.min(this.count - 1, index + 1);
    const direction = key === "ArrowDown" ? 1 : key === "ArrowUp" ? -1 : 0;
    const next = direction && this.nextRow(this.rowOf(index), direction);
    if (!next) return index;
    const place = this.placeAt(index);
    return nearestInRow(this.row(next), place.left + place.width / 2, this.placeAt);
  }

  /// The slot an arrow key carries a lifted photo to from `slot`: one
  /// along (Left, Right), the nearest gap of the row above or below (Up,
  /// Down), the start or the end (Home, End).
  slotStep(slot, key) {
    if (key === "Home") return 0;
    if (key === "End") return this.count;
    if (key === "ArrowLeft") return Math.max(0, slot - 1);
    if (key === "ArrowRight") return Math.min(this.count, slot + 1);
    const direction = key === "ArrowDown" ? 1 : key === "ArrowUp" ? -1 : 0;
    if (!direction || !this.count) return slot;
    const x = this.slotFrame(slot).left;
    const next = this.nextRow(this.rowOf(Math.min(slot, this.count - 1)), direction);
    if (!next) return direction > 0 ? this.count : 0;
    // The row's gaps: before each of its photos, and after its last.
    const row = this.row(next);
    const end = row.first + row.count;
    let best = row.first;
    let distance = Infinity;
    for (let at = row.first; at <= end; at++) {
      const place = this.placeAt(Math.min(at, end - 1));
      const away = Math.abs((at < end ? place.left : place.left + place.width) - x);
      if (away < distance) { best = at; distance = away; }
    }
    return best;
  }
}
