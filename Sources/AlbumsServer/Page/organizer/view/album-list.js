// The album list, a tree of folders and albums: read, drawn and walked.
// Rows open albums and open or close folders (remembered); the keys are
// the WAI-ARIA tree view's (arrows, Home, End, type-ahead, *). What rows
// also do is added by the modules that do it, listening on the list:
// album-commands.js (create, rename in place, delete, lock, sort),
// album-menus.js (the album and folder menus) and tree-drag.js (reorder
// and file by drag or by keyboard). On phones and tablets the list is a
// drawer over the grid.

import { api, thumbnailURL } from "../core/api.js";
import { acceptFilesInto } from "./files.js";
import { refreshHistory } from "./history.js";
import { contentsText, currentPane, element, isNarrow, plural, say, state } from "../core/state.js";
import { chip } from "../model/search-query.js";
import { LIBRARY } from "./timeline.js";
import { albumsInOrder, buildTree, reflects, typeAhead, visibleRows } from "../model/tree-model.js";

export let list;
/// What other modules do to the list: the row being renamed in place (its
/// key), and the album or folder being dragged or lifted.
export const listState = { renaming: null, reorder: null };
let rows = [];            // the rows shown, as tree-model's visibleRows gives them
let current = null;       // the key of the row that takes Tab (roving tabindex)

/// Folders open in the list, by id, kept across visits.
export let openFolders;
export const rememberOpenFolders = () => localStorage.setItem("albums.openFolders", JSON.stringify([...openFolders]));

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

/// The read of the album list in flight, if any, done when it is.
export const albumListRead = () => reading ?? Promise.resolve();

/// Makes the list show what a write's answer says it did: one read, unless
/// a read already under way (the change stream's, which often comes before
/// the answer) shows it.
export async function showWritten(answer) {
  await albumListRead().catch(() => {});
  if (!reflects(state.tree, { operations: [answer?.changes ?? []], folder_changes: answer?.folder_changes ?? [] })) await loadAlbums();
}

export const albumNamed = (name) => state.albums.find((album) => album.name === name);

/// A name as text and line-break chances after each slash: "Travel/Summer
/// 2025" wraps after "Travel/" where it must wrap, not inside "Summer".
function breakable(name) {
  const parts = name.split("/");
  return parts.flatMap((part, index) => (index < parts.length - 1 ? [`${part}/`, element("wbr")] : [part]));
}

export const keyOf = (node) => `${node.kind}:${node.kind === "album" ? node.name : node.id}`;
export const rowFor = (key) => list.querySelector(`li[data-key="${CSS.escape(key)}"]`);
export const entryFor = (name) => rowFor(`album:${name}`);

/// The rows shown, in order (as tree-model's visibleRows gives them).
export const shownRows = () => rows;

/// The row an entry of the list shows, or undefined.
export function rowOf(entry) {
  const key = entry?.closest?.("li[data-key]")?.dataset.key;
  return key === undefined ? undefined : rows.find((row) => keyOf(row.node) === key);
}

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

/// Shows the library's timeline in the pane a person works in: every
/// photo, or (`unfiled`) the ones no album holds.
export async function openLibrary({ unfiled = false } = {}) {
  const pane = currentPane();
  state.focused = pane.index;
  await pane.showLibrary(unfiled ? [chip("no_album", "1")] : []);
  renderAlbumList();
  closeDrawer();
  pane.timeline.viewport.focus({ preventScroll: true });
}

/// Opens or closes a folder in the list.
export function toggleFolder(id, open = !openFolders.has(id)) {
  if (open) openFolders.add(id); else openFolders.delete(id);
  rememberOpenFolders();
  renderAlbumList();
}

export function renderAlbumList() {
  if (listState.renaming || !state.tree) return;  // redrawn once the rename ends
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
  // The library's views are marked when a pane shows them, as an album's row is.
  const library = state.panes.find((pane) => pane.showsLibrary && !pane.timeline.smart)?.timeline;
  const unfiled = Boolean(library?.chips.some((each) => each.kind === "no_album"));
  document.getElementById("all-photos").classList.toggle("shown", Boolean(library) && !unfiled);
  document.getElementById("no-album-photos").classList.toggle("shown", unfiled);
  const choices = chosenTree === state.tree ? null : albumsInOrder(state.tree);
  chosenTree = state.tree;
  for (const pane of state.panes) {
    // A smart album shown follows its entry through renames (ids stay).
    if (pane.showsLibrary && pane.timeline.smart) {
      pane.timeline.smart = state.albums.find((album) => album.id === pane.timeline.smart.id) ?? pane.timeline.smart;
      pane.timeline.renderChips();
    }
    if (choices) {
      pane.choice.replaceChildren(
        element("option", { value: "", textContent: "No album" }),
        element("option", { value: LIBRARY, textContent: "All photos" }),
        ...choices.map((album) => element("option", { value: album.name, textContent: album.path })));
    }
    pane.choice.value = pane.showsLibrary ? pane.timeline.smart?.name ?? LIBRARY : pane.name ?? "";
    pane.choice.title = pane.choice.selectedOptions[0]?.textContent ?? "";
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
  entry.addEventListener("focus", () => {
    current = entry.dataset.key;
    list.querySelectorAll("li[data-key]").forEach((each) => { each.tabIndex = each === entry ? 0 : -1; });
  });
  return entry;
}

/// The side of a row's cover in CSS pixels (style.css: nav li .covers).
const COVER_PIXELS = 40;

/// The photos that stand for a row: an album's cover, or up to four of a
/// folder's albums' covers as a mosaic; an empty square without any.
/// Decorative: the row's label says what it is.
function covers(photoIds) {
  const box = element("span", { className: `covers count-${photoIds.length}` });
  box.setAttribute("aria-hidden", "true");
  for (const id of photoIds) box.append(element("img", { src: thumbnailURL(id, COVER_PIXELS), alt: "", loading: "lazy", decoding: "async", draggable: false }));
  return box;
}

function albumRow(row, shown) {
  const album = row.node.item;
  const loading = album.pending ? `, ${album.pending} loading` : "";
  const entry = treeItem(row, `${album.name}, ${album.smart ? "smart album, " : ""}${contentsText(album.count, album.videos)}${loading}${album.locked ? ", locked" : ""}`);
  entry.dataset.album = album.name;
  entry.title = album.name;
  const isShown = shown.has(album.name) || state.panes.some((pane) => pane.showsLibrary && pane.timeline.smart?.name === album.name);
  entry.setAttribute("aria-selected", isShown);
  entry.classList.toggle("shown", isShown);
  entry.classList.toggle("smart", Boolean(album.smart));
  entry.append(
    element("span", { className: "twisty", ariaHidden: "true" }),
    covers(album.cover_photo_id === null || album.cover_photo_id === undefined ? [] : [album.cover_photo_id]),
    element("span", { className: "name" }, ...breakable((album.locked ? "🔒 " : "") + (album.smart ? "✦ " : "") + album.name)),
    element("span", { className: "count", textContent: album.pending ? `${album.count} (${album.pending}…)` : `${album.count}` }));
  entry.addEventListener("click", (event) => { if (!listState.reorder) openAlbum(album.name, { other: event.shiftKey }).catch((error) => say(error.message, true)); });
  acceptFilesInto(entry, album.name);
  return entry;
}

function folderRow(row) {
  const folder = row.node;
  const isOpen = openFolders.has(folder.id);
  const entry = treeItem(row, `${folder.name}, folder, ${plural(folder.albumCount, "album")}${folder.locked ? ", locked" : ""}`);
  entry.dataset.folder = folder.id;
  entry.title = folder.name;
  entry.classList.add("folder");
  entry.setAttribute("aria-expanded", isOpen);
  const twisty = element("span", { className: "twisty", textContent: isOpen ? "▾" : "▸" });
  twisty.setAttribute("aria-hidden", "true");
  entry.append(
    twisty,
    covers(folder.item.cover_photo_ids ?? []),
    element("span", { className: "name", textContent: (folder.locked ? "🔒 " : "") + folder.name }),
    element("span", { className: "count", textContent: plural(folder.albumCount, "album") }));
  entry.addEventListener("click", () => { if (!listState.reorder) toggleFolder(folder.id); });
  return entry;
}

let typed = "";         // type-ahead: what was typed
let typedAt = 0;        // when the last letter came

export function focusRow(index) {
  const entries = [...list.querySelectorAll("li[data-key]")];
  entries[Math.max(0, Math.min(entries.length - 1, index))]?.focus();
}

/// Walking the tree: the keys of the tree view pattern. Space, F2, Delete
/// and the menu key are the other modules' (they listen on the list).
function rowKeyDown(event, row) {
  const index = rows.indexOf(row);
  const node = row.node;
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
  } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && event.key !== "*" && event.key !== " ") {
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

let drawerButton;
let nav;

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

/// Whether the album list is a drawer: on narrow screens (phones, tablets in portrait).
let drawerQuery;
const layout = () => {
  document.body.classList.toggle("drawer-layout", drawerQuery.matches);
  document.body.classList.toggle("narrow", isNarrow());
  if (!drawerQuery.matches) closeDrawer();
};

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  list = document.getElementById("album-list");
  openFolders = new Set(JSON.parse(localStorage.getItem("albums.openFolders") ?? "[]"));
  document.getElementById("all-photos").addEventListener("click", () => openLibrary().catch((error) => say(error.message, true)));
  document.getElementById("no-album-photos").addEventListener("click", () => openLibrary({ unfiled: true }).catch((error) => say(error.message, true)));
  drawerButton = document.getElementById("albums-button");
  nav = document.getElementById("albums-drawer");
  drawerButton.addEventListener("click", () => (document.body.classList.contains("drawer-open") ? closeDrawer() : openDrawer()));
  document.getElementById("drawer-scrim").addEventListener("click", closeDrawer);
  document.getElementById("close-drawer").addEventListener("click", () => { closeDrawer(); drawerButton.focus(); });
  nav.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !listState.reorder && !listState.renaming) { closeDrawer(); drawerButton.focus(); }
  });
  drawerQuery = window.matchMedia("(max-width: 1099px)");
  drawerQuery.addEventListener("change", layout);
  window.matchMedia("(max-width: 699px)").addEventListener("change", layout);
  layout();
}
