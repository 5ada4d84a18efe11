// Replaying a committed change set on a list of items, as a table or
// collection view applies PhotoKit's change details in one batch update:
// removals are positions in the old list, insertions and updates positions
// in the new one, and each move goes from an old position to a new one.
// Items that neither leave nor move keep their relative order and fill
// the slots that are left. Positions are 1-based, as the API sends them.

/// The positions whose items must be read to replay `change`: what it
/// inserts, and the placeholders it turns into photos.
export function positionsToRead(change) {
  return [...new Set([...change.inserted, ...change.updated])].sort((a, b) => a - b);
}

/// The list after `change`, or null when the change does not fit `old`
/// (the list must then be read again). `read(position)` gives the item now
/// at a position of the new list, for the positions of `positionsToRead`.
export function replayChange(old, change, read) {
  const removed = new Set(change.removed.map((position) => position - 1));
  const movedFrom = new Set(change.moved.map((move) => move.from - 1));
  const length = old.length - removed.size + change.inserted.length;
  if (length < 0) return null;
  const result = new Array(length).fill(null);
  for (const move of change.moved) {
    if (move.to < 1 || move.to > length || result[move.to - 1] !== null || !old[move.from - 1]) return null;
    result[move.to - 1] = old[move.from - 1];
  }
  for (const position of change.inserted) {
    if (position < 1 || position > length || result[position - 1] !== null) return null;
    result[position - 1] = read(position) ?? null;
    if (result[position - 1] === null) return null;
  }
  let next = 0;
  for (let index = 0; index < length; index++) {
    if (result[index] !== null) continue;
    while (next < old.length && (removed.has(next) || movedFrom.has(next))) next++;
    if (next >= old.length) return null;
    result[index] = old[next++];
  }
  for (const position of change.updated) {
    const item = read(position);
    if (!item || position < 1 || position > length) return null;
    result[position - 1] = item;
  }
  return result;
}
