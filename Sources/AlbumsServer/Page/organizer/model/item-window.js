// The items of an album that the page has read: a window onto a list of
// any length. The page reads only the items around what is in view, so an
// album of a million photos costs what its screenful costs; change sets
// are replayed on what is loaded, and what is not loaded stays unread until
// it comes into view. No DOM here: the node tests hold it.

const byNumber = (a, b) => a - b;

/// The positions whose items must be read to replay `change`: what it
/// inserts, and the placeholders it turns into photos.
export function positionsToRead(change) {
  return [...new Set([...change.inserted, ...change.updated])].sort(byNumber);
}

/// How many of the sorted numbers are below `value`.
function countBelow(sorted, value) {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) low = middle + 1; else high = middle;
  }
  return low;
}

/// The index of the `rank`-th (0-based) slot not in `taken` (sorted).
function nthFree(taken, rank) {
  let index = rank;
  for (const slot of taken) {
    if (slot <= index) index++; else break;
  }
  return index;
}

/// Change sets larger than this are not replayed item by item: the window
/// is read again (a sort of a huge album moves every item).
export const LARGEST_REPLAYED_CHANGE = 50_000;

export class ItemWindow {
  /// An album of `count` items, none read yet.
  constructor(count = 0) {
    this.count = count;
    this.items = new Map();     // index → item
    this.indexes = new Map();   // item id → index
    this.version = 0;           // grows with every change to what is read, so that a layout of it knows it is stale
  }

  /// How many items are loaded.
  get loaded() { return this.items.size; }

  at(index) { return this.items.get(index); }

  indexOf(itemId) { return this.indexes.get(itemId) ?? -1; }

  /// Stores items read from `offset` on.
  put(offset, items) {
    items.forEach((item, step) => this.set(offset + step, item));
  }

  set(index, item) {
    this.version++;
    const old = this.items.get(index);
    if (old) this.indexes.delete(old.item_id);
    const stale = this.indexes.get(item.item_id);
    if (stale !== undefined && stale !== index) this.items.delete(stale);
    this.items.set(index, item);
    this.indexes.set(item.item_id, index);
  }

  /// Whether every index of [first, last) is loaded.
  covers(first, last) {
    for (let index = Math.max(0, first); index < Math.min(last, this.count); index++) if (!this.items.has(index)) return false;
    return true;
  }

  /// The runs of indexes of [first, last) not loaded yet, as [start, end) pairs.
  missing(first, last) {
    const runs = [];
    let start = null;
    const end = Math.min(last, this.count);
    for (let index = Math.max(0, first); index < end; index++) {
      if (this.items.has(index)) {
        if (start !== null) { runs.push([start, index]); start = null; }
      } else if (start === null) {
        start = index;
      }
    }
    if (start !== null) runs.push([start, end]);
    return runs;
  }

  /// The loaded item ids, in album order.
  ids() {
    return [...this.items.keys()].sort(byNumber).map((index) => this.items.get(index).item_id);
  }

  /// Items that stand at `slot` before anyone else knows of them (an
  /// upload's local placeholders): every item from there on moves up.
  insert(slot, items) {
    const moved = [...this.items].filter(([index]) => index >= slot).sort((a, b) => b[0] - a[0]);
    for (const [index, item] of moved) {
      this.items.delete(index);
      this.items.set(index + items.length, item);
      this.indexes.set(item.item_id, index + items.length);
    }
    this.count += items.length;
    this.put(slot, items);
  }

  /// Replays a committed change set (PhotoKit's index spaces, 1-based
  /// positions: removals in the old list, insertions and updates in the
  /// new, moves from old to new) on what is loaded. `read(position)` gives
  /// the item now at an inserted or updated position when it was read;
  /// those not read are left unloaded. Answers false when the change does
  /// not fit this list (the window must then be read again).
  replay(change, read) {
    const size = change.removed.length + change.inserted.length + change.moved.length + change.updated.length;
    if (size > LARGEST_REPLAYED_CHANGE) return false;
    const removed = change.removed.map((position) => position - 1).sort(byNumber);
    const inserted = change.inserted.map((position) => position - 1).sort(byNumber);
    const newCount = this.count - removed.length + inserted.length;
    const moves = new Map(change.moved.map((move) => [move.from - 1, move.to - 1]));
    const outOf = (index, count) => !Number.isInteger(index) || index < 0 || index >= count;
    if (removed.some((index) => outOf(index, this.count)) || inserted.some((index) => outOf(index, newCount))) return false;
    for (const [from, to] of moves) if (outOf(from, this.count) || outOf(to, newCount)) return false;
    // The old indexes whose items do not keep their order, and the new ones
    // filled otherwise than by those that do: the rest pair up in order.
    const leaving = [...new Set([...removed, ...moves.keys()])].sort(byNumber);
    const filled = [...new Set([...inserted, ...moves.values()])].sort(byNumber);
    if (filled.length !== inserted.length + moves.size) return false;   // two items for one slot
    if (this.count - leaving.length !== newCount - filled.length) return false;
    const gone = new Set(removed);
    const next = new Map();
    for (const [index, item] of this.items) {
      if (gone.has(index)) continue;
      const to = moves.has(index) ? moves.get(index) : nthFree(filled, index - countBelow(leaving, index));
      next.set(to, item);
    }
    for (const position of [...change.inserted, ...change.updated]) {
      const item = read(position);
      if (item) next.set(position - 1, item); else next.delete(position - 1);
    }
    this.version++;
    this.items = next;
    this.indexes = new Map([...next].map(([index, item]) => [item.item_id, index]));
    this.count = newCount;
    for (const [index, item] of next) item.position = index + 1;
    return true;
  }

  /// Forgets loaded items beyond `limit`, farthest from [first, last) first,
  /// keeping those whose ids are in `keep`: memory stays bounded however far
  /// a person scrolls.
  trim(first, last, limit, keep = new Set()) {
    if (this.items.size <= limit) return;
    const distance = (index) => (index < first ? first - index : index >= last ? index - last + 1 : 0);
    this.version++;
    const far = [...this.items].filter(([, item]) => !keep.has(item.item_id)).sort((a, b) => distance(b[0]) - distance(a[0]));
    for (const [index, item] of far.slice(0, this.items.size - limit)) {
      if (distance(index) === 0) break;
      this.items.delete(index);
      this.indexes.delete(item.item_id);
    }
  }
}
