// What a drop asks the server to do: the operation object of
// `POST /api/operations` (a line of `albums apply`), from what the person
// carried and where they let go. No DOM here: the node tests hold it.

/// The 1-based position the first carried item will stand at when it
/// lands in front of `slot` (0 … count: before the item now at `slot`).
/// Moving within one album, the album is counted without the carried
/// items, as the operation's `at` is.
export function landingPosition({ carriedPositions, slot, sameAlbum, copy }) {
  const staying = sameAlbum && !copy ? carriedPositions.filter((position) => position <= slot).length : 0;
  return slot - staying + 1;
}

/// The move or copy of the items at `positions` (1-based, in the order
/// they are to land) of album `from`, into album `to`: at `slot` of it,
/// or, with a null slot, at its end. Revisions the page has seen go along,
/// so a drop on a view that is out of date is refused rather than misplaced.
export function dropOperation({ from, positions, to, slot = null, copy = false }) {
  const operation = {
    op: copy ? "copy" : "move",
    items: positions.map((position) => `${from.name}:${position}`),
    to: to.name,
  };
  const expect = { [from.name]: from.revision };
  if (to.revision !== undefined && to.revision !== null) expect[to.name] = to.revision;
  operation.expect_revision = expect;
  if (slot !== null) {
    operation.at = landingPosition({ carriedPositions: positions, slot, sameAlbum: from.name === to.name, copy });
  }
  return operation;
}

/// The 1-based position `at` that a "Move to…" or "Copy to…" asks for:
/// "start", "end" (null: the operation appends) or a number the person typed.
export function chosenPosition(place, typed) {
  if (place === "start") return 1;
  if (place === "end") return null;
  const number = Number(typed);
  return Number.isInteger(number) && number >= 1 ? number : undefined;
}

/// Photos of the library (by id, in the order they are to land) added to
/// album `to`: at `slot` of it (0 … count), or with a null slot at its
/// end. Adding is a copy: the library keeps every photo, in an album or not.
export function addPhotosOperation({ photoIds, to, slot = null }) {
  const operation = { op: "copy", items: photoIds.map((id) => `id:${id}`), to: to.name };
  if (to.revision !== undefined && to.revision !== null) operation.expect_revision = { [to.name]: to.revision };
  if (slot !== null) operation.at = slot + 1;
  return operation;
}
