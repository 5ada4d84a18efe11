// The album list, a tree of folders and albums: open an album, create,
// rename in place, delete, lock, sort; open and close folders (remembered);
// reorder and file albums and folders by drag or by keyboard, with the
// server's proposal while hovering, as for photos. The keys are the
// WAI-ARIA tree view's (arrows, Home, End, type-ahead), plus Space to lift
// an album or folder and arrows to carry it.

import { openShareDialog } from "./people.js";
import { api, propose } from "./api.js";
import { acceptFilesInto } from "./files.js";
import { refreshHistory } from "./history.js";
import { perform, refused } from "./live.js";
import { currentPane, element, isNarrow, plural, say, state } from "./state.js";
import {
  albumsInOrder, atTheEnd, buildTree, describeTarget, isWhereItIs, keyboardTargets, moveOperation, pointerTarget, typeAhead, unusedName, visibleRows,
} from "./tree-model.js";
import { startSlideshow } from "./viewer.js";

const list = document.getElementById("album-list");
let renaming = null;      // the row being renamed in place: its key
let reorder = null;       // an album or folder being dragged or lifted in the list
let rows = [];            // the rows shown, as tree-model's visibleRows gives them
let current = null;       // the key of the row that takes Tab (roving tabindex)

/// Folders open in the list, by id, kept across visits.
const openFolders = new Set(JSON.parse(localStorage.getItem("albums.openFolders") ?? "[]"));
const rememberOpenFolders = () => localStorage.setItem("albums.openFolders", JSON.stringify([...openFolders]));

let reading = null;     // the read of the album list in flight
let readAgain = false;  // something changed while it was read

/// Reads the tree of albums and folders and draws it. Calls while a read
/// is in flight make one more read after it, not one each: an import
/// commits thousands of times in a few seconds.
export function loadAlbums() {
  if (reading) { readAgain = true; return reading; }
  reading = (async () => {
    do {
      readAgain = false;
      const answer = await api("/api/albums");
      state.albums = answer.albums;
      state.tree = buildTree(answer);
      renderAlbumList();
      await refreshHistory().catch(() => {});
    } while (readAgain);
  })().finally(() => { reading = null; });
  return reading;
}

const albumNamed = (name) => state.albums.find((album) => album.name === name);
const keyOf = (node) => `${node.kind}:${node.kind === "album" ? node.name : node.id}`;
const rowFor = (key) => list.querySelector(`li[data-key="${CSS.escape(key)}"]`);
const entryFor = (name) => rowFor(`album:${name}`);

/// Opens `name` in the pane a person works in (Shift: the other one).
export async function openAlbum(name, { other = false } = {}) {
  const pane = other ? state.panes.find((each) => each !== currentPane()) : currentPane();
  state.focused = pane.index;
  await pane.open(name);
  revealFolders(name);
  renderAlbumList();
  closeDrawer();
}

let revealed = false;  // whether the shown albums' folders were opened once
let chosenTree = null;  // the tree the panes' album choosers were made from

/// Opens the folders above an album, so that its row is in view.
function revealFolders(name) {
  const album = state.tree && albumsInOrder(state.tree).find((node) => node.name === name);
  for (let parent = album?.parentId; parent !== null && parent !== undefined; parent = state.tree.folders.get(parent)?.parentId) openFolders.add(parent);
  rememberOpenFolders();
}

/// Opens or closes a folder in the list.
function toggleFolder(id, open = !openFolders.has(id)) {
  if (open) openFolders.add(id); else openFolders.delete(id);
  rememberOpenFolders();
  renderAlbumList();
}

export function renderAlbumList() {
  if (renaming || !state.tree) return;  // redrawn once the rename ends
  const focusedKey = document.activeElement?.closest?.("#album-list li[data-key]")?.dataset.key;
  const shown = new Set(state.panes.map((pane) => pane.name));
  // The first time the panes show albums, their folders open, so that what they show is in view.
  if (!revealed && state.panes.some((pane) => pane.name)) {
    revealed = true;
    for (const pane of state.panes) revealFolders(pane.name);
  }
  rows = visibleRows(state.tree, openFolders);
  const keys = rows.map((row) => keyOf(row.node));
  if (!keys.includes(current)) current = keys.find((key) => shown.has(key.slice(6))) ?? keys[0] ?? null;
  list.replaceChildren(...rows.map((row) => (row.node.kind === "album" ? albumRow(row, shown) : folderRow(row))));
  if (focusedKey && keys.includes(focusedKey)) { current = focusedKey; rowFor(focusedKey)?.focus({ preventScroll: true }); }
  list.querySelectorAll("li[data-key]").forEach((entry) => { entry.tabIndex = entry.dataset.key === current ? 0 : -1; });
  // The panes' album choosers, made again only when the albums were read
  // again (opening a folder must not remake ten thousand options).
  const choices = chosenTree === state.tree ? null : albumsInOrder(state.tree);
  chosenTree = state.tree;
  for (const pane of state.panes) {
    if (choices) {
      pane.choice.replaceChildren(
        element("option", { value: "", textContent: "No album" }),
        ...choices.map((album) => element("option", { value: album.name, textContent: album.path })));
    }
    pane.choice.value = pane.name ?? "";
    if (pane.album) {
      const fresh = albumNamed(pane.name);
      if (fresh) Object.assign(pane.album, { count: fresh.count, locked: fresh.locked, pending: fresh.pending });
      pane.render();
    }
    const album = pane.album;
    pane.section.querySelector(".album-menu-button").disabled = !album;
    pane.section.querySelector(".add-photos").disabled = !album || album.locked;
  }
}

/// What every row has: its place in the tree for screen readers, its indent, its keys.
function treeItem(row, label) {
  const entry = element("li", { tabIndex: -1 });
  entry.dataset.key = keyOf(row.node);
  entry.setAttribute("role", "treeitem");
  entry.setAttribute("aria-level", row.depth + 1);
  entry.setAttribute("aria-posinset", row.posinset);
  entry.setAttribute("aria-setsize", row.setsize);
  entry.setAttribute("aria-label", label);
  entry.style.setProperty("--depth", row.depth);
  entry.addEventListener("keydown", (event) => rowKeyDown(event, row));
  entry.addEventListener("pointerdown", (event) => rowPointerDown(event, row));
  entry.addEventListener("focus", () => {
    current = entry.dataset.key;
    list.querySelectorAll("li[data-key]").forEach((each) => { each.tabIndex = each === entry ? 0 : -1; });
  });
  return entry;
}

function albumRow(row, shown) {
  const album = row.node.item;
  const loading = album.pending ? `, ${album.pending} loading` : "";
  const entry = treeItem(row, `${album.name}, ${plural(album.count, "photo")}${loading}${album.locked ? ", locked" : ""}`);
  entry.dataset.album = album.name;
  entry.setAttribute("aria-selected", shown.has(album.name));
  entry.classList.toggle("shown", shown.has(album.name));
  entry.append(
    element("span", { className: "twisty", ariaHidden: "true" }),
    element("span", { className: "name", textContent: (album.locked ? "🔒 " : "") + album.name }),
    element("span", { className: "count", textContent: album.pending ? `${album.count} (${album.pending}…)` : `${album.count}` }));
  entry.addEventListener("click", (event) => { if (!reorder) openAlbum(album.name, { other: event.shiftKey }).catch((error) => say(error.message, true)); });
  entry.addEventListener("dblclick", () => renameInPlace(album.name));
  entry.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    if (event.pointerType !== "touch") showAlbumMenu(album.name, event.clientX, event.clientY);
  });
  acceptFilesInto(entry, album.name);
  return entry;
}

function folderRow(row) {
  const folder = row.node;
  const isOpen = openFolders.has(folder.id);
  const entry = treeItem(row, `${folder.name}, folder, ${plural(folder.albumCount, "album")}${folder.locked ? ", locked" : ""}`);
  entry.dataset.folder = folder.id;
  entry.classList.add("folder");
  entry.setAttribute("aria-expanded", isOpen);
  const twisty = element("span", { className: "twisty", textContent: isOpen ? "▾" : "▸" });
  twisty.setAttribute("aria-hidden", "true");
  entry.append(
    twisty,
    element("span", { className: "name", textContent: (folder.locked ? "🔒 " : "") + folder.name }),
    element("span", { className: "count", textContent: plural(folder.albumCount, "album") }));
  entry.addEventListener("click", () => { if (!reorder) toggleFolder(folder.id); });
  entry.addEventListener("dblclick", (event) => { event.preventDefault(); renameFolderInPlace(folder); });
  entry.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    if (event.pointerType !== "touch") showFolderMenu(folder, event.clientX, event.clientY);
  });
  return entry;
}

// MARK: Create, rename, delete, lock, sort

/// Creates an album named "New album" (or "New album 2", …), opens it, and lets the name be typed at once.
export async function createAlbum() {
  const name = unusedName("New album", new Set(state.albums.map((album) => album.name)));
  try {
    await perform({ op: "create_album", name });
    await loadAlbums();
    await openAlbum(name);
    say(`Created ${name}. Type its name, then Enter.`);
    renameInPlace(name);
  } catch (error) {
    await refused(error, "Not created");
  }
}

/// Turns an album's entry into a text field; Enter (or leaving it) renames, Escape keeps the name.
export function renameInPlace(name) {
  editInPlace(`album:${name}`, name, async (wanted) => {
    const album = albumNamed(name);
    await perform({ op: "rename_album", album: name, name: wanted, expect_revision: { [name]: album.revision } });
    await loadAlbums();
    entryFor(wanted)?.focus();
    say(`Renamed ${name} to ${wanted}.`);
  });
}

/// Turns a row into a text field holding `name`; Enter (or leaving it)
/// calls `rename` with the new name, Escape keeps the old one.
function editInPlace(key, name, rename) {
  openDrawer();
  const entry = rowFor(key);
  if (!entry || renaming) return;
  renaming = key;
  const field = element("input", { type: "text", value: name, className: "rename", spellcheck: false });
  field.setAttribute("aria-label", `New name for ${name}`);
  entry.replaceChildren(field);
  field.focus();
  field.select();
  let finished = false;
  const finish = async (keep) => {
    if (finished) return;
    finished = true;
    renaming = null;
    const wanted = field.value.trim();
    if (keep || !wanted || wanted === name) { renderAlbumList(); rowFor(key)?.focus(); return; }
    try {
      await rename(wanted);
    } catch (error) {
      renderAlbumList();
      await refused(error, "Not renamed");
    }
  };
  field.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter") { event.preventDefault(); finish(false); }
    if (event.key === "Escape") { event.preventDefault(); finish(true); }
  });
  field.addEventListener("blur", () => finish(false));
  field.addEventListener("pointerdown", (event) => event.stopPropagation());
  field.addEventListener("click", (event) => event.stopPropagation());
}

const deleteDialog = document.getElementById("delete-dialog");

/// Asks before deleting an album, saying what goes and what stays.
export function confirmDelete(name) {
  const album = albumNamed(name);
  if (!album) return;
  document.getElementById("delete-title").textContent = `Delete the album ${name}?`;
  const photos = album.count - album.pending;
  document.getElementById("delete-text").textContent =
    `Its ${plural(photos, "photo")} stay in the library; only the album and its order go.` +
    (album.pending ? ` ${plural(album.pending, "photo")} still loading will be cancelled.` : "") +
    " Undo (Ctrl+Z) brings it back.";
  deleteDialog.returnValue = "";
  deleteDialog.dataset.album = name;
  deleteDialog.showModal();
  deleteDialog.querySelector("button[value=cancel]").focus();
}

deleteDialog.addEventListener("close", async () => {
  const name = deleteDialog.dataset.album;
  if (deleteDialog.returnValue !== "delete" || !name) return;
  const album = albumNamed(name);
  try {
    await perform({ op: "delete_album", album: name, force: album?.pending > 0, expect_revision: album ? { [name]: album.revision } : undefined });
    await loadAlbums();
    say(`Deleted the album ${name}${album ? ` (${plural(album.count, "photo")} stay in the library)` : ""}. Undo (Ctrl+Z) brings it back.`);
  } catch (error) {
    await refused(error, "Not deleted");
  }
});

export async function setLocked(name, locked) {
  try {
    await perform({ op: locked ? "lock_album" : "unlock_album", album: name });
    await loadAlbums();
    say(locked ? `Locked ${name}: nothing enters, leaves or moves in it until it is unlocked.` : `Unlocked ${name}.`);
  } catch (error) {
    await refused(error, locked ? "Not locked" : "Not unlocked");
  }
}

const sortWords = { "capture-date": ["capture date, oldest first", "capture date, newest first"], name: ["name, A to Z", "name, Z to A"] };

export async function sortAlbum(name, by, descending) {
  try {
    const answer = await perform({ op: "sort_album", album: name, by, descending, expect_revision: { [name]: albumNamed(name).revision } });
    const words = sortWords[by][descending ? 1 : 0];
    say(answer.verdict === "no_op" ? `${name} is already in order by ${words}.` : `Sorted ${name} by ${words}. Undo (Ctrl+Z) restores the order.`);
  } catch (error) {
    await refused(error, "Not sorted");
  }
}

// MARK: The album menu (a pane's ⋯ button, right click on an album)

const menu = document.getElementById("album-menu");
let menuAlbum = null;

export function showAlbumMenu(name, x, y, returnFocus = null) {
  const album = albumNamed(name);
  if (!album) return;
  menuAlbum = { name, returnFocus };
  menu.querySelector("[data-action=lock]").textContent = album.locked ? "Unlock" : "Lock";
  menu.querySelector("h3").textContent = name;
  showMenuAt(menu, x, y);
}

menu.addEventListener("click", async (event) => {
  const button = event.target.closest("button");
  if (!button || !menuAlbum) return;
  const { name } = menuAlbum;
  menu.hidePopover();
  const action = button.dataset.action;
  if (action === "rename") renameInPlace(name);
  else if (action === "lock") setLocked(name, !albumNamed(name)?.locked);
  else if (action === "sort") sortAlbum(name, button.dataset.by, button.dataset.descending === "true");
  else if (action === "delete") confirmDelete(name);
  else if (action === "share") openShareDialog(name);
  else if (action === "slideshow") {
    const pane = state.panes.find((each) => each.name === name) ?? currentPane();
    if (pane.name !== name) await pane.open(name);
    startSlideshow(pane);
  }
});
menuKeys(menu);
menu.addEventListener("toggle", (event) => {
  if (event.newState === "closed" && menuAlbum?.returnFocus && !document.querySelector("dialog[open]") && !renaming) menuAlbum.returnFocus.focus();
});

// MARK: Folders: create, rename, delete, lock

/// Creates a folder ("New folder", "New folder 2", …) at the top level or
/// inside `parent`, and lets its name be typed at once.
export async function createFolder(parent = null) {
  const siblings = parent ? parent.children : state.tree.roots;
  const name = unusedName("New folder", new Set(siblings.map((node) => node.name)));
  try {
    const answer = await perform({ op: "create_folder", name, into: parent ? parent.path : "/" });
    if (parent) { openFolders.add(parent.id); rememberOpenFolders(); }
    await loadAlbums();
    const id = answer.folder_changes.find((change) => change.events.includes("created"))?.folder_id;
    const folder = state.tree.folders.get(id);
    say(`Created the folder ${name}. Type its name, then Enter.`);
    if (folder) renameFolderInPlace(folder);
  } catch (error) {
    await refused(error, "Not created");
  }
}

/// Creates an album inside a folder and opens it.
async function createAlbumIn(folder) {
  const name = unusedName("New album", new Set(state.albums.map((album) => album.name)));
  try {
    await perform({ op: "create_album", name, into: folder.path });
    openFolders.add(folder.id);
    rememberOpenFolders();
    await loadAlbums();
    await openAlbum(name);
    say(`Created ${name} in ${folder.name}. Type its name, then Enter.`);
    renameInPlace(name);
  } catch (error) {
    await refused(error, "Not created");
  }
}

function renameFolderInPlace(folder) {
  editInPlace(`folder:${folder.id}`, folder.name, async (wanted) => {
    await perform({ op: "rename_folder", folder: folder.path, name: wanted });
    await loadAlbums();
    rowFor(`folder:${folder.id}`)?.focus();
    say(`Renamed the folder ${folder.name} to ${wanted}.`);
  });
}

const folderDeleteDialog = document.getElementById("folder-delete-dialog");

/// Asks before deleting a folder; one that holds something needs a choice
/// of what becomes of it (photos are never deleted).
export function confirmFolderDelete(folder) {
  const empty = folder.children.length === 0;
  document.getElementById("folder-delete-title").textContent = `Delete the folder ${folder.name}?`;
  document.getElementById("folder-delete-text").textContent = empty
    ? "It is empty. Undo (Ctrl+Z) brings it back."
    : `It holds ${plural(folder.albumCount, "album")}. Move what it holds to its place, or delete its albums too: their photos stay in the library either way. Undo (Ctrl+Z) brings everything back.`;
  folderDeleteDialog.querySelector("button[value=refuse]").hidden = !empty;
  folderDeleteDialog.querySelector("button[value=move]").hidden = empty;
  folderDeleteDialog.querySelector("button[value=delete]").hidden = empty;
  folderDeleteDialog.returnValue = "";
  folderDeleteDialog.dataset.folder = folder.id;
  folderDeleteDialog.showModal();
  folderDeleteDialog.querySelector("button[value=cancel]").focus();
}

folderDeleteDialog.addEventListener("close", async () => {
  const choice = folderDeleteDialog.returnValue;
  const folder = state.tree.folders.get(Number(folderDeleteDialog.dataset.folder));
  if (!folder || !["refuse", "move", "delete"].includes(choice)) return;
  const operation = { op: "delete_folder", folder: folder.path };
  if (choice !== "refuse") operation.contents = choice;
  try {
    await perform(operation);
    await loadAlbums();
    const what = choice === "move" ? "; what it held took its place" : choice === "delete" ? ` and its ${plural(folder.albumCount, "album")} (their photos stay in the library)` : "";
    say(`Deleted the folder ${folder.name}${what}. Undo (Ctrl+Z) brings it back.`);
  } catch (error) {
    await refused(error, "Not deleted");
  }
});

async function setFolderLocked(folder, locked) {
  try {
    await perform({ op: locked ? "lock_folder" : "unlock_folder", folder: folder.path });
    await loadAlbums();
    say(locked ? `Locked the folder ${folder.name}: nothing enters, leaves or moves in it until it is unlocked.` : `Unlocked the folder ${folder.name}.`);
  } catch (error) {
    await refused(error, locked ? "Not locked" : "Not unlocked");
  }
}

const folderMenu = document.getElementById("folder-menu");
let menuFolder = null;

function showFolderMenu(folder, x, y, returnFocus = null) {
  menuFolder = { folder, returnFocus };
  folderMenu.querySelector("[data-action=lock]").textContent = folder.locked ? "Unlock" : "Lock";
  folderMenu.querySelector("h3").textContent = folder.path;
  showMenuAt(folderMenu, x, y);
}

folderMenu.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || !menuFolder) return;
  const { folder } = menuFolder;
  folderMenu.hidePopover();
  const action = button.dataset.action;
  if (action === "rename") renameFolderInPlace(folder);
  else if (action === "new-album") createAlbumIn(folder);
  else if (action === "new-folder") createFolder(folder);
  else if (action === "lock") setFolderLocked(folder, !folder.locked);
  else if (action === "delete") confirmFolderDelete(folder);
});
menuKeys(folderMenu);
folderMenu.addEventListener("toggle", (event) => {
  if (event.newState === "closed" && menuFolder?.returnFocus && !document.querySelector("dialog[open]") && !renaming) menuFolder.returnFocus.focus();
});

/// Shows a menu at a point, kept inside the window, its first button focused.
function showMenuAt(popover, x, y) {
  popover.showPopover();
  const { width, height } = popover.getBoundingClientRect();
  popover.style.left = `${Math.max(4, Math.min(x, innerWidth - width - 4))}px`;
  popover.style.top = `${Math.max(4, Math.min(y, innerHeight - height - 4))}px`;
  popover.querySelector("button").focus();
}

/// Up and down step through a menu's buttons.
function menuKeys(menu) {
  menu.addEventListener("keydown", (event) => {
    const buttons = [...menu.querySelectorAll("button")];
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step) { event.preventDefault(); buttons[(buttons.indexOf(document.activeElement) + step + buttons.length) % buttons.length].focus(); }
  });
}

// MARK: Reordering and filing: by drag and by keyboard

function markTarget(target, forbidden = false) {
  list.querySelectorAll(".reorder-marker").forEach((marker) => marker.remove());
  list.querySelectorAll(".drop-into").forEach((entry) => entry.classList.remove("drop-into", "drop-forbidden"));
  if (!target) return;
  if (target.kind === "into" || target.kind === "first") {
    const entry = rowFor(keyOf(target.row.node));
    entry?.classList.add("drop-into");
    entry?.classList.toggle("drop-forbidden", forbidden);
    // The end of an open folder is shown after its last row too.
    if (target.kind === "into" && !(target.last && target.last !== target.row)) return;
  }
  const marker = element("li", { className: `reorder-marker${forbidden ? " forbidden" : ""}` });
  marker.setAttribute("aria-hidden", "true");
  const entries = [...list.querySelectorAll("li[data-key]")];
  const anchor = target.kind === "into" ? target.last : target.row;
  const at = anchor ? entries.indexOf(rowFor(keyOf(anchor.node))) : -1;
  const depth = target.kind === "first" || target.kind === "into" ? (target.row?.depth ?? 0) + 1 : target.row?.depth ?? 0;
  marker.style.setProperty("--depth", depth);
  const beforeEntry = target.kind === "before" ? entries[at] : target.kind === "end" ? null : entries[at + 1] ?? null;
  list.insertBefore(marker, beforeEntry ?? null);
}

async function askReorder(current) {
  const operation = moveOperation(state.tree, current.node, current.target);
  const asked = ++current.asked;
  let proposal;
  try {
    proposal = await propose(operation);
  } catch (error) {
    proposal = { allowed: false, reason: { message: error.message } };
  }
  if (reorder !== current || asked !== current.asked) return;
  current.proposal = proposal;
  markTarget(current.target, !proposal.allowed);
  const where = describeTarget(state.tree, current.node, current.target);
  if (!proposal.allowed) say(`Cannot move ${current.node.name} ${where}: ${proposal.reason.message}`, true);
  else say(proposal.verdict === "no_op" ? `${current.node.name} stays where it is.` : `Move ${current.node.name} ${where}.`);
}

async function dropReorder(current) {
  reorder = null;
  markTarget(null);
  document.body.classList.remove("reordering");
  const { node, target } = current;
  const where = describeTarget(state.tree, node, target);
  if (current.proposal && !current.proposal.allowed) { say(`Not moved: ${current.proposal.reason.message}`, true); renderAlbumList(); return; }
  if (isWhereItIs(node, target)) { renderAlbumList(); rowFor(keyOf(node))?.focus(); say(`${node.name} stays where it was.`); return; }
  try {
    await perform(moveOperation(state.tree, node, target));
    if (target.parentId !== null) { openFolders.add(target.parentId); rememberOpenFolders(); }
    await loadAlbums();
    rowFor(keyOf(node))?.focus({ preventScroll: true });
    say(`Moved ${node.name} ${where}.`);
  } catch (error) {
    renderAlbumList();
    await refused(error, "Not moved");
  }
}

/// Where the pointer at height `y` drops: by the row under it, or last at the top level below every row.
function targetAt(node, y) {
  const entries = [...list.querySelectorAll("li[data-key]")];
  for (const [index, entry] of entries.entries()) {
    const box = entry.getBoundingClientRect();
    if (y < box.bottom) {
      const row = rows[index];
      const fraction = Math.max(0, Math.min(1, (y - box.top) / box.height));
      return pointerTarget(state.tree, node, row, fraction, row.node.kind === "folder" && openFolders.has(row.node.id));
    }
  }
  return atTheEnd(state.tree, node);
}

const sameTarget = (a, b) => a && b && a.parentId === b.parentId && a.index === b.index && a.kind === b.kind && a.row === b.row;

/// Whether a finger rests on a row of the list: it then drags the row,
/// and the list must not scroll under it.
let fingerOnEntry = () => false;
list.addEventListener("touchmove", (event) => { if (fingerOnEntry() || reorder) event.preventDefault(); }, { passive: false });

function rowPointerDown(event, row) {
  if (event.button !== 0 || renaming || event.target.closest("input")) return;
  const entry = event.currentTarget;
  const start = { x: event.clientX, y: event.clientY };
  let dragging = false;
  let armed = event.pointerType !== "touch";
  const timer = event.pointerType === "touch" ? setTimeout(() => { armed = true; entry.classList.add("armed"); if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(10); }, 350) : null;
  fingerOnEntry = () => armed;
  const move = (moveEvent) => {
    if (!dragging) {
      if (Math.hypot(moveEvent.clientX - start.x, moveEvent.clientY - start.y) < 6) return;
      if (!armed) { finish(); return; }  // a swipe scrolls the list
      dragging = true;
      entry.setPointerCapture(event.pointerId);
      reorder = { node: row.node, target: null, asked: 0, proposal: null };
      entry.classList.add("lifted");
      document.body.classList.add("reordering");
    }
    const target = targetAt(row.node, moveEvent.clientY);
    if (!sameTarget(target, reorder.target)) { reorder.target = target; reorder.proposal = null; markTarget(target); askReorder(reorder); }
  };
  const finish = () => {
    clearTimeout(timer);
    fingerOnEntry = () => false;
    entry.classList.remove("armed");
    entry.removeEventListener("pointermove", move);
    entry.removeEventListener("pointerup", up);
    entry.removeEventListener("pointercancel", up);
  };
  const up = (upEvent) => {
    finish();
    if (!dragging) return;
    const lifted = reorder;
    upEvent.preventDefault();
    // The click that follows a drag must not open the album or the folder.
    setTimeout(() => { if (reorder === lifted) reorder = null; }, 0);
    if (upEvent.type === "pointercancel" || !lifted.target) { reorder = null; markTarget(null); renderAlbumList(); say("Nothing moved."); return; }
    dropReorder(lifted);
  };
  entry.addEventListener("pointermove", move);
  entry.addEventListener("pointerup", up);
  entry.addEventListener("pointercancel", up);
}

let typed = "";         // type-ahead: what was typed
let typedAt = 0;        // when the last letter came

function focusRow(index) {
  const entries = [...list.querySelectorAll("li[data-key]")];
  entries[Math.max(0, Math.min(entries.length - 1, index))]?.focus();
}

function rowKeyDown(event, row) {
  const index = rows.indexOf(row);
  const node = row.node;
  if (reorder?.lifted) {
    event.preventDefault();
    const targets = reorder.targets;
    const step = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key];
    if (step !== undefined) {
      const at = targets.findIndex((target) => sameTarget(target, reorder.target));
      reorder.target = targets[Math.max(0, Math.min(targets.length - 1, step === Infinity ? targets.length - 1 : step === -Infinity ? 0 : at + step))];
      markTarget(reorder.target);
      askReorder(reorder);
    } else if (event.key === "Enter" || event.key === " ") {
      dropReorder(reorder);
    } else if (event.key === "Escape" || event.key === "Tab") {
      reorder = null;
      markTarget(null);
      rowFor(keyOf(node))?.classList.remove("lifted");
      say(`Put back; ${node.name} stays where it was.`);
    }
    return;
  }
  const step = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key];
  const isFolder = node.kind === "folder";
  const isOpen = isFolder && openFolders.has(node.id);
  if (step !== undefined) {
    event.preventDefault();
    focusRow(step === Infinity ? rows.length - 1 : step === -Infinity ? 0 : index + step);
  } else if (event.key === "ArrowRight") {
    event.preventDefault();
    if (isFolder && !isOpen) { toggleFolder(node.id, true); rowFor(keyOf(node))?.focus(); say(`Opened ${node.name}.`); } else if (isOpen) focusRow(index + 1);
  } else if (event.key === "ArrowLeft") {
    event.preventDefault();
    if (isOpen) { toggleFolder(node.id, false); rowFor(keyOf(node))?.focus(); say(`Closed ${node.name}.`); } else if (node.parentId !== null && node.parentId !== undefined) rowFor(`folder:${node.parentId}`)?.focus();
  } else if (event.key === "Enter") {
    event.preventDefault();
    if (isFolder) { toggleFolder(node.id); rowFor(keyOf(node))?.focus(); } else openAlbum(node.name, { other: event.shiftKey }).catch((error) => say(error.message, true));
  } else if (event.key === " ") {
    event.preventDefault();
    const targets = keyboardTargets(state.tree, rows, node);
    const target = targets.find((each) => isWhereItIs(node, each)) ?? targets[0];
    reorder = { node, target, targets, asked: 0, proposal: null, lifted: true };
    rowFor(keyOf(node))?.classList.add("lifted");
    markTarget(target);
    say(`Lifted ${node.name} ${describeTarget(state.tree, node, target, { from: true })}. Up and down choose its place (into a folder, or between albums and folders), Enter puts it there, Escape puts it back.`);
  } else if (event.key === "F2") {
    event.preventDefault();
    if (isFolder) renameFolderInPlace(node); else renameInPlace(node.name);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    if (isFolder) confirmFolderDelete(node); else confirmDelete(node.name);
  } else if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) {
    event.preventDefault();
    const box = event.currentTarget.getBoundingClientRect();
    if (isFolder) showFolderMenu(node, box.left + 24, box.bottom, event.currentTarget);
    else showAlbumMenu(node.name, box.left + 24, box.bottom, event.currentTarget);
  } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== "*") {
    // Type-ahead: the next row whose name starts with what was typed.
    event.preventDefault();
    const now = performance.now();
    typed = now - typedAt < 700 ? typed + event.key : event.key;
    typedAt = now;
    const found = typeAhead(rows, typed.length > 1 ? index - 1 : index, typed);
    if (found >= 0) focusRow(found);
  } else if (event.key === "*") {
    // Opens every folder beside this row, as the tree view pattern has it.
    event.preventDefault();
    for (const sibling of rows.filter((each) => each.node.parentId === node.parentId && each.node.kind === "folder")) openFolders.add(sibling.node.id);
    rememberOpenFolders();
    renderAlbumList();
    rowFor(keyOf(node))?.focus();
  }
}

// MARK: The drawer (phones and tablets: the list slides over the grid)

const drawerButton = document.getElementById("albums-button");
const nav = document.getElementById("albums-drawer");

export function openDrawer() {
  if (!document.body.classList.contains("drawer-layout") || document.body.classList.contains("drawer-open")) return;
  document.body.classList.add("drawer-open");
  drawerButton.setAttribute("aria-expanded", "true");
  nav.querySelector("li.shown, li[data-key], button")?.focus({ preventScroll: true });
}

export function closeDrawer() {
  if (!document.body.classList.contains("drawer-open")) return;
  document.body.classList.remove("drawer-open");
  drawerButton.setAttribute("aria-expanded", "false");
}

drawerButton.addEventListener("click", () => (document.body.classList.contains("drawer-open") ? closeDrawer() : openDrawer()));
document.getElementById("drawer-scrim").addEventListener("click", closeDrawer);
document.getElementById("close-drawer").addEventListener("click", () => { closeDrawer(); drawerButton.focus(); });
nav.addEventListener("keydown", (event) => { if (event.key === "Escape" && !reorder && !renaming) { closeDrawer(); drawerButton.focus(); } });
document.getElementById("new-album").addEventListener("click", () => createAlbum());
document.getElementById("new-folder").addEventListener("click", () => createFolder());

/// Whether the album list is a drawer: on narrow screens (phones, tablets in portrait).
const drawerQuery = window.matchMedia("(max-width: 1099px)");
const layout = () => {
  document.body.classList.toggle("drawer-layout", drawerQuery.matches);
  document.body.classList.toggle("narrow", isNarrow());
  if (!drawerQuery.matches) closeDrawer();
};
drawerQuery.addEventListener("change", layout);
window.matchMedia("(max-width: 699px)").addEventListener("change", layout);
layout();
