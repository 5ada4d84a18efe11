// The album list as a tree, without the page: the rows a person sees,
// where an album or folder dragged or lifted among them may land, and the
// line of `albums apply` that puts it there.

/// The tree of `GET /api/albums`: every album and folder with its parent
/// and 1-based position among its parent's children.
export function buildTree({ albums = [], folders = [] }) {
  const folderNodes = new Map(folders.map((folder) =>
    [folder.id, { kind: "folder", id: folder.id, name: folder.name, path: folder.path, parentId: folder.parent_id, position: folder.position, locked: folder.locked, item: folder, children: [], albumCount: 0 }]));
  const roots = [];
  const childrenOf = (parentId) => (parentId === null || parentId === undefined ? roots : folderNodes.get(parentId)?.children ?? roots);
  for (const node of folderNodes.values()) childrenOf(node.parentId).push(node);
  const albumNodes = new Map();
  for (const album of albums) {
    const parent = folderNodes.get(album.parent_id);
    const node = { kind: "album", id: album.id, name: album.name, path: parent ? `${parent.path}/${album.name}` : album.name, parentId: album.parent_id ?? null, position: album.position, locked: album.locked, item: album };
    albumNodes.set(album.id, node);
    childrenOf(album.parent_id).push(node);
  }
  const sort = (list) => {
    list.sort((a, b) => a.position - b.position);
    for (const node of list) if (node.kind === "folder") sort(node.children);
  };
  sort(roots);
  // Each folder counts the albums inside it, at every depth.
  const count = (node) => node.kind === "album" ? 1 : (node.albumCount = node.children.reduce((sum, child) => sum + count(child), 0));
  roots.forEach(count);
  return { roots, folders: folderNodes, albums: albumNodes };
}

/// Whether `tree` shows what the committed `change` (an event of the
/// change stream) did already: every album it changed stands at that
/// change's revision or later (or is gone, if it was deleted), and every
/// folder it changed too. A write that read the list again itself needs no
/// second read when its own event arrives.
export function reflects(tree, change) {
  if (!tree || change.follows_a_gap || change.rights_changed) return false;
  for (const changes of (change.operations ?? []).flat()) {
    const shown = tree.albums.get(changes.album_id);
    if (changes.album_events?.includes("deleted") ? shown : (shown?.item.revision ?? -1) < changes.revision) return false;
  }
  for (const folder of change.folder_changes ?? []) {
    const shown = tree.folders.get(folder.folder_id);
    if (folder.events.includes("deleted") ? shown : (shown?.item.revision ?? -1) < folder.revision) return false;
  }
  return true;
}

/// The children of a parent (null: the top level).
export const childrenOf = (tree, parentId) => (parentId === null ? tree.roots : tree.folders.get(parentId)?.children ?? []);

/// The rows a person sees, depth first: a folder's children only while it is open.
export function visibleRows(tree, open) {
  const rows = [];
  const visit = (list, depth) => list.forEach((node, index) => {
    rows.push({ node, depth, posinset: index + 1, setsize: list.length });
    if (node.kind === "folder" && open.has(node.id)) visit(node.children, depth + 1);
  });
  visit(tree.roots, 0);
  return rows;
}

/// Every album, depth first: the tree's order, folders open or not.
export function albumsInOrder(tree) {
  const albums = [];
  const visit = (list) => { for (const node of list) { if (node.kind === "album") albums.push(node); else visit(node.children); } };
  visit(tree.roots);
  return albums;
}

/// Whether `node` is `folderId` or inside it.
function isInside(tree, node, folderId) {
  for (let at = node; at; at = at.parentId === null ? null : tree.folders.get(at.parentId)) {
    if (at.kind === "folder" && at.id === folderId) return true;
  }
  return false;
}

/// A place among a parent's children, as the server counts it: 0-based
/// among the children without the node that moves.
function place(tree, moving, parentId, indexWithIt) {
  const siblings = childrenOf(tree, parentId);
  const from = siblings.indexOf(moving);
  return { parentId, index: from >= 0 && from < indexWithIt ? indexWithIt - 1 : indexWithIt };
}

/// Just before `row`'s node, in its folder.
const before = (tree, moving, row) => ({ ...place(tree, moving, row.node.parentId ?? null, row.node.position - 1), row, kind: "before" });

/// Just after `row`'s node, in its folder.
const after = (tree, moving, row) => ({ ...place(tree, moving, row.node.parentId ?? null, row.node.position), row, kind: "after" });

/// Into a folder: last among its children, or first with `first`.
function into(tree, moving, row, { first = false } = {}) {
  const children = row.node.children;
  return { ...place(tree, moving, row.node.id, first ? 0 : children.length), row, kind: first ? "first" : "into" };
}

/// Last at the top level.
export const atTheEnd = (tree, moving) => ({ ...place(tree, moving, null, tree.roots.length), row: null, kind: "end" });

/// Every place the keyboard steps through while an album or folder is
/// lifted, in the order the rows show: before each row, into each closed
/// folder right after it, the end of each open folder after its last
/// row, and last at the top level. Places inside the lifted folder are
/// left out (a folder cannot go into itself), and two names for one place
/// are one stop.
export function keyboardTargets(tree, rows, moving) {
  const targets = [];
  const seen = new Set();
  const add = (target) => {
    const key = `${target.parentId}:${target.index}`;
    if (seen.has(key)) return;
    seen.add(key);
    targets.push(target);
  };
  const open = [];  // open folders whose end is still to come, with their last row so far
  const closeDeeperThan = (depth) => {
    while (open.length && open.at(-1).row.depth >= depth) {
      const { row, last } = open.pop();
      add({ ...into(tree, moving, row), last });
      if (open.length) open.at(-1).last = last;
    }
  };
  rows.forEach((row, index) => {
    closeDeeperThan(row.depth);
    if (open.length) open.at(-1).last = row;
    if (moving.kind === "folder" && row.node !== moving && isInside(tree, row.node, moving.id)) return;
    add(before(tree, moving, row));
    if (row.node.kind !== "folder" || row.node === moving) return;
    const showsChildren = rows[index + 1]?.depth > row.depth;
    if (showsChildren) open.push({ row, last: row }); else add(into(tree, moving, row));
  });
  closeDeeperThan(0);
  add(atTheEnd(tree, moving));
  return targets;
}

/// Where a pointer at `fraction` (0 top … 1 bottom) of `row` drops: before
/// or after an album; before, into, or after a folder (into its top when
/// it is open: its children show right below it).
export function pointerTarget(tree, moving, row, fraction, isOpen) {
  if (row.node.kind === "album") return fraction < 0.5 ? before(tree, moving, row) : after(tree, moving, row);
  if (fraction < 0.25) return before(tree, moving, row);
  if (isOpen) return into(tree, moving, row, { first: fraction >= 0.75 });
  return fraction < 0.75 ? into(tree, moving, row) : after(tree, moving, row);
}

/// Whether a target leaves the node where it is.
export function isWhereItIs(moving, target) {
  return (moving.parentId ?? null) === target.parentId && moving.position - 1 === target.index;
}

/// The line of `albums apply` that moves `node` to `target`: into its
/// folder (by path; "/" is the top level) at a 1-based place.
export function moveOperation(tree, node, target) {
  const into = target.parentId === null ? "/" : tree.folders.get(target.parentId).path;
  return node.kind === "album"
    ? { op: "move_album", album: node.name, into, at: target.index + 1, expect_revision: { [node.name]: node.item.revision } }
    : { op: "move_folder", folder: node.path, into, at: target.index + 1 };
}

/// Words for a target, for the status line: "into Travel, place 2 of 3",
/// "to the top level, place 1 of 4"; `from` says where a lifted one stands.
export function describeTarget(tree, moving, target, { from = false } = {}) {
  const where = target.parentId === null ? "the top level" : tree.folders.get(target.parentId).name;
  const count = childrenOf(tree, target.parentId).filter((node) => node !== moving).length + 1;
  const preposition = from ? "from" : target.parentId === null ? "to" : "into";
  return `${preposition} ${where}, place ${target.index + 1} of ${count}`;
}

/// Type-ahead: the first row after `from` (wrapping) whose name starts with `typed`.
export function typeAhead(rows, from, typed) {
  const wanted = typed.toLocaleLowerCase();
  for (let step = 1; step <= rows.length; step++) {
    const row = rows[(from + step) % rows.length];
    if (row.node.name.toLocaleLowerCase().startsWith(wanted)) return (from + step) % rows.length;
  }
  return -1;
}

/// The name a new album or folder gets: `base` ("New album"), else "New
/// album 2", "New album 3", …, the first that `taken` does not hold.
export function unusedName(base, taken) {
  let name = base;
  for (let number = 2; taken.has(name); number++) name = `${base} ${number}`;
  return name;
}
