// Which items are selected after a click, a tap or a key, as in Finder and
// the photo apps: a plain click chooses one, Ctrl/⌘ adds or takes away,
// Shift extends from the anchor. Pure: the node tests hold it.

/// The selection after choosing `id` in `ids` (the album's item ids, in
/// order) with the given modifiers. Answers `{ selected, anchor }`;
/// `selected` is a new Set in the order items were chosen.
export function choose({ selected, anchor, ids, id, toggle = false, extend = false }) {
  if (toggle) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id); else next.add(id);
    return { selected: next, anchor: id };
  }
  const from = anchor === null ? -1 : ids.indexOf(anchor);
  if (extend && from >= 0) {
    const to = ids.indexOf(id);
    const next = new Set(selected);
    const step = to >= from ? 1 : -1;
    for (let index = from; index !== to + step; index += step) next.add(ids[index]);
    return { selected: next, anchor };
  }
  return { selected: new Set([id]), anchor: id };
}

/// What a drag or a lift carries, in album order: the selection if `id`
/// is in it, else `id` alone.
export function carried({ selected, ids, id }) {
  if (!selected.has(id)) return [id];
  return ids.filter((each) => selected.has(each));
}
