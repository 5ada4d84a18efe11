// The list of albums: open one, create, rename in place, delete, lock,
// sort, and reorder by drag or by keyboard, with the server's proposal
// while hovering, as for photos.

import { api, propose } from "./api.js";
import { acceptFilesInto } from "./files.js";
import { refreshHistory } from "./history.js";
import { perform, refused } from "./live.js";
import { currentPane, element, isNarrow, plural, say, state } from "./state.js";
import { startSlideshow } from "./viewer.js";

const list = document.getElementById("album-list");
let renaming = null;      // the album being renamed in place
let reorder = null;       // an album being dragged or lifted in the list

let reading = null;     // the read of the album list in flight
let readAgain = false;  // something changed while it was read

/// Reads the list of albums and draws it. Calls while a read is in flight
/// make one more read after it, not one each: an import commits thousands
/// of times in a few seconds.
export function loadAlbums() {
  if (reading) { readAgain = true; return reading; }
  reading = (async () => {
    do {
      readAgain = false;
      state.albums = (await api("/api/albums")).albums;
      renderAlbumList();
      await refreshHistory().catch(() => {});
    } while (readAgain);
  })().finally(() => { reading = null; });
  return reading;
}

const albumNamed = (name) => state.albums.find((album) => album.name === name);

/// Opens `name` in the pane a person works in (Shift: the other one).
export async function openAlbum(name, { other = false } = {}) {
  const pane = other ? state.panes.find((each) => each !== currentPane()) : currentPane();
  state.focused = pane.index;
  await pane.open(name);
  closeDrawer();
}

export function renderAlbumList() {
  if (renaming) return;  // redrawn once the rename ends
  const focused = document.activeElement?.closest?.("#album-list li")?.dataset.album;
  const shown = new Set(state.panes.map((pane) => pane.name));
  list.replaceChildren(...state.albums.map((album, index) => {
    const entry = element("li", { tabIndex: 0 });
    entry.dataset.album = album.name;
    entry.setAttribute("role", "option");
    entry.setAttribute("aria-posinset", index + 1);
    entry.setAttribute("aria-setsize", state.albums.length);
    entry.setAttribute("aria-selected", shown.has(album.name));
    entry.classList.toggle("shown", shown.has(album.name));
    const loading = album.pending ? `, ${album.pending} loading` : "";
    entry.setAttribute("aria-label", `${album.name}, ${plural(album.count, "photo")}${loading}${album.locked ? ", locked" : ""}`);
    entry.append(
      element("span", { className: "name", textContent: (album.locked ? "🔒 " : "") + album.name }),
      element("span", { className: "count", textContent: album.pending ? `${album.count} (${album.pending}…)` : `${album.count}` }));
    entry.addEventListener("click", (event) => { if (!reorder) openAlbum(album.name, { other: event.shiftKey }).catch((error) => say(error.message, true)); });
    entry.addEventListener("dblclick", () => renameInPlace(album.name));
    entry.addEventListener("keydown", (event) => entryKeyDown(event, album.name));
    entry.addEventListener("pointerdown", (event) => entryPointerDown(event, album.name));
    entry.addEventListener("contextmenu", (event) => {
      event.preventDefault();
      if (event.pointerType !== "touch") showAlbumMenu(album.name, event.clientX, event.clientY);
    });
    acceptFilesInto(entry, album.name);
    return entry;
  }));
  if (focused) list.querySelector(`li[data-album="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  for (const pane of state.panes) {
    pane.choice.replaceChildren(
      element("option", { value: "", textContent: "No album" }),
      ...state.albums.map((album) => element("option", { value: album.name, textContent: album.name })));
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

const entryFor = (name) => list.querySelector(`li[data-album="${CSS.escape(name)}"]`);

// MARK: Create, rename, delete, lock, sort

/// Creates an album named "New album" (or "New album 2", …), opens it, and lets the name be typed at once.
export async function createAlbum() {
  const taken = new Set(state.albums.map((album) => album.name));
  let name = "New album";
  for (let number = 2; taken.has(name); number++) name = `New album ${number}`;
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
  openDrawer();
  const entry = entryFor(name);
  if (!entry || renaming) return;
  renaming = name;
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
    if (keep || !wanted || wanted === name) { renderAlbumList(); entryFor(name)?.focus(); return; }
    try {
      const album = albumNamed(name);
      await perform({ op: "rename_album", album: name, name: wanted, expect_revision: { [name]: album.revision } });
      await loadAlbums();
      entryFor(wanted)?.focus();
      say(`Renamed ${name} to ${wanted}.`);
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
  menu.showPopover();
  const { width, height } = menu.getBoundingClientRect();
  menu.style.left = `${Math.max(4, Math.min(x, innerWidth - width - 4))}px`;
  menu.style.top = `${Math.max(4, Math.min(y, innerHeight - height - 4))}px`;
  menu.querySelector("button").focus();
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
  else if (action === "slideshow") {
    const pane = state.panes.find((each) => each.name === name) ?? currentPane();
    if (pane.name !== name) await pane.open(name);
    startSlideshow(pane);
  }
});
menu.addEventListener("keydown", (event) => {
  const buttons = [...menu.querySelectorAll("button")];
  const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
  if (step) { event.preventDefault(); buttons[(buttons.indexOf(document.activeElement) + step + buttons.length) % buttons.length].focus(); }
});
menu.addEventListener("toggle", (event) => {
  if (event.newState === "closed" && menuAlbum?.returnFocus && !document.querySelector("dialog[open]") && !renaming) menuAlbum.returnFocus.focus();
});

// MARK: Reordering albums: by drag and by keyboard

/// The `move_album` that puts `name` in front of the album now at `slot`
/// (0 … count), as a 1-based place in the list without it.
function reorderOperation(name, slot) {
  const from = state.albums.findIndex((album) => album.name === name);
  const at = slot > from ? slot : slot + 1;
  return { op: "move_album", album: name, at, expect_revision: { [name]: albumNamed(name).revision } };
}

function markSlot(slot, forbidden = false) {
  list.querySelectorAll(".reorder-marker").forEach((marker) => marker.remove());
  if (slot === null) return;
  const entries = [...list.children];
  const marker = element("li", { className: `reorder-marker${forbidden ? " forbidden" : ""}` });
  marker.setAttribute("aria-hidden", "true");
  list.insertBefore(marker, entries[slot] ?? null);
}

async function askReorder(current) {
  const operation = reorderOperation(current.name, current.slot);
  const asked = ++current.asked;
  let proposal;
  try {
    proposal = await propose(operation);
  } catch (error) {
    proposal = { allowed: false, reason: { message: error.message } };
  }
  if (reorder !== current || asked !== current.asked) return;
  current.proposal = proposal;
  markSlot(current.slot, !proposal.allowed);
  if (!proposal.allowed) say(`Cannot move ${current.name} there: ${proposal.reason.message}`, true);
  else say(proposal.verdict === "no_op" ? `${current.name} stays at place ${operation.at}.` : `Move ${current.name} to place ${operation.at} of ${state.albums.length}.`);
}

async function dropReorder(current) {
  reorder = null;
  markSlot(null);
  document.body.classList.remove("reordering");
  const operation = reorderOperation(current.name, current.slot);
  if (current.proposal && !current.proposal.allowed) { say(`Not moved: ${current.proposal.reason.message}`, true); renderAlbumList(); return; }
  try {
    const answer = await perform(operation);
    await loadAlbums();
    entryFor(current.name)?.focus({ preventScroll: true });
    say(answer.verdict === "no_op" ? `${current.name} stays where it was.` : `Moved ${current.name} to place ${operation.at}.`);
  } catch (error) {
    renderAlbumList();
    await refused(error, "Not moved");
  }
}

/// The insertion slot (0 … count) of the list nearest the pointer's height.
function slotAt(y) {
  const entries = [...list.querySelectorAll("li[data-album]")];
  const index = entries.findIndex((entry) => { const box = entry.getBoundingClientRect(); return y < box.top + box.height / 2; });
  return index < 0 ? entries.length : index;
}

/// Whether a finger rests on an album of the list: it then drags the
/// album, and the list must not scroll under it.
let fingerOnEntry = () => false;
list.addEventListener("touchmove", (event) => { if (fingerOnEntry() || reorder) event.preventDefault(); }, { passive: false });

function entryPointerDown(event, name) {
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
      reorder = { name, slot: null, asked: 0, proposal: null };
      entry.classList.add("lifted");
      document.body.classList.add("reordering");
    }
    const slot = slotAt(moveEvent.clientY);
    if (slot !== reorder.slot) { reorder.slot = slot; reorder.proposal = null; markSlot(slot); askReorder(reorder); }
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
    const current = reorder;
    upEvent.preventDefault();
    // The click that follows a drag must not open the album.
    setTimeout(() => { if (reorder === current) reorder = null; }, 0);
    if (upEvent.type === "pointercancel" || current.slot === null) { reorder = null; markSlot(null); renderAlbumList(); say("Nothing moved."); return; }
    dropReorder(current);
  };
  entry.addEventListener("pointermove", move);
  entry.addEventListener("pointerup", up);
  entry.addEventListener("pointercancel", up);
}

function entryKeyDown(event, name) {
  const entries = [...list.querySelectorAll("li[data-album]")];
  const index = entries.findIndex((entry) => entry.dataset.album === name);
  if (reorder?.lifted) {
    event.preventDefault();
    const step = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key];
    if (step !== undefined) {
      // Slots skip the album's own: in front of it and just after it mean the same place.
      const from = state.albums.findIndex((album) => album.name === reorder.name);
      let place = (reorder.slot > from ? reorder.slot - 1 : reorder.slot) + (step === Infinity ? entries.length : step === -Infinity ? -entries.length : step);
      place = Math.max(0, Math.min(entries.length - 1, place));
      reorder.slot = place >= from ? place + 1 : place;
      markSlot(reorder.slot);
      askReorder(reorder);
    } else if (event.key === "Enter" || event.key === " ") {
      dropReorder(reorder);
    } else if (event.key === "Escape" || event.key === "Tab") {
      reorder = null;
      markSlot(null);
      entries[index]?.classList.remove("lifted");
      say("Put back; the albums keep their order.");
    }
    return;
  }
  const step = { ArrowDown: 1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key];
  if (step !== undefined) {
    event.preventDefault();
    entries[Math.max(0, Math.min(entries.length - 1, index + step))]?.focus();
  } else if (event.key === "Enter") {
    event.preventDefault();
    openAlbum(name, { other: event.shiftKey }).catch((error) => say(error.message, true));
  } else if (event.key === " ") {
    event.preventDefault();
    reorder = { name, slot: index, asked: 0, proposal: null, lifted: true };
    entries[index].classList.add("lifted");
    markSlot(index);
    say(`Lifted ${name} from place ${index + 1} of ${entries.length}. Up and down choose its place, Enter puts it there, Escape puts it back.`);
  } else if (event.key === "F2") {
    event.preventDefault();
    renameInPlace(name);
  } else if (event.key === "Delete" || event.key === "Backspace") {
    event.preventDefault();
    confirmDelete(name);
  } else if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) {
    event.preventDefault();
    const box = event.currentTarget.getBoundingClientRect();
    showAlbumMenu(name, box.left + 24, box.bottom, event.currentTarget);
  }
}

// MARK: The drawer (phones and tablets: the list slides over the grid)

const drawerButton = document.getElementById("albums-button");
const nav = document.getElementById("albums-drawer");

export function openDrawer() {
  if (!document.body.classList.contains("drawer-layout") || document.body.classList.contains("drawer-open")) return;
  document.body.classList.add("drawer-open");
  drawerButton.setAttribute("aria-expanded", "true");
  nav.querySelector("li.shown, li[data-album], button")?.focus({ preventScroll: true });
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
