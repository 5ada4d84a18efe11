// The organizer page of `albums serve`: albums side by side in justified rows,
// drag and drop through the server's proposals, a non-drag way to do
// every drag, files through placeholders, the viewer, and live change
// sets from every writer. Plain modern JavaScript in ES modules by job,
// no dependencies and no build step: the binary carries these files.
//
//   state.js          what the modules share; the status line
//   api.js            the JSON API
//   pane.js           one album in justified rows, only what is in view drawn and read
//   timeline.js       the library as a timeline: search, chips, months, adding to albums
//   justified-rows.js photos at their shapes in rows that fill the width (pure)
//   timeline-model.js the timeline's days, rows and arrow steps (pure)
//   album-layout.js   an album's rows, laid out in chunks as they are read; slots and arrow steps (pure)
//   search-query.js   what the search field makes of what is typed: chips, suggestions (pure)
//   item-window.js    the items read of an album; change sets replayed on them (pure)
//   selection.js      click, Ctrl-click, Shift-click (pure)
//   drop-model.js     the operation a drop asks for (pure)
//   drag.js           pointer drags of photos
//   keyboard.js       the keyboard: lift, move, drop, and the actions
//   actions.js        remove, Move to…, Copy to…, a photo's menu
//   album-list.js     the album list, a tree: read, drawn, walked; the drawer
//   album-commands.js create, rename in place, delete, lock, sort albums and folders
//   album-menus.js    the album and folder menus
//   tree-drag.js      reorder and file albums and folders, by drag or by keyboard
//   menus.js          popover menus at a point, walked with the arrows
//   tree-model.js     the tree's rows, where a drag or lift lands, the move it asks for (pure)
//   files.js          uploads from the desktop and the file picker
//   viewer.js         one photo large, the slideshow
//   zoom.js           the rows' height
//   history.js        undo and redo
//   live.js           writes, and the change stream
//   people.js         who is signed in, signing out, sharing an album
//
// They import in one direction: state → api → the models (pure) → live
// (writes and the stream, which announce and never call a view) → the
// views → this file, which wires them (Tests/Page/module-graph.test.mjs).

import { contextMenu, openTransferDialog, wireSelectionBar } from "./actions.js";
import { createAlbum, createSmartAlbum, freezeAlbum } from "./album-commands.js";
import { albumListRead, loadAlbums, renderAlbumList } from "./album-list.js";
import { showAlbumMenu } from "./album-menus.js";
import "./tree-drag.js";
import { pointerDown, touchMoveGuard } from "./drag.js";
import { acceptFiles, pickFiles } from "./files.js";
import { gridKeyDown } from "./keyboard.js";
import { library, listen } from "./live.js";
import { Pane, tileHooks } from "./pane.js";
import { timelineHooks } from "./timeline.js";
import { goToSignIn, showSignedIn } from "./people.js";
import { isNarrow, state } from "./state.js";
import { reflects } from "./tree-model.js";
import { openViewer, startSlideshow } from "./viewer.js";
import { pinchToZoom, zoomTo } from "./zoom.js";

Object.assign(tileHooks, {
  pointerDown: (event, pane, itemId) => pointerDown(event, pane, itemId, openViewer),
  open: openViewer,
  contextMenu,
  keyDown: gridKeyDown,
  opened: () => renderAlbumList(),
  paneCreated(pane) {
    acceptFiles(pane);
    pinchToZoom(pane);
    touchMoveGuard(pane);
    wireSelectionBar(pane);
    pane.section.querySelector(".add-photos").addEventListener("click", () => pickFiles(pane));
    pane.section.querySelector(".add-folder").addEventListener("click", () => pickFiles(pane, { folder: true }));
    pane.section.querySelector(".slideshow").addEventListener("click", () => startSlideshow(pane));
    const menuButton = pane.section.querySelector(".album-menu-button");
    menuButton.addEventListener("click", () => {
      const box = menuButton.getBoundingClientRect();
      showAlbumMenu(pane.name, box.right - 220, box.bottom + 4, menuButton);
    });
  },
});

Object.assign(timelineHooks, {
  pointerDown: (event, timeline, photoId) => pointerDown(event, timeline, photoId, openViewer),
  open: openViewer,
  addTo: (timeline) => openTransferDialog(timeline, true),
  albums: () => state.albums.map((album) => album.name),
  created: (timeline) => { touchMoveGuard(timeline); pinchToZoom(timeline); },
  keepAsSmart: (timeline) => createSmartAlbum(timeline.chips),
  freeze: (timeline) => freezeAlbum(timeline.smart.name),
});

document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
const captions = document.getElementById("captions-button");
captions.addEventListener("click", () => {
  const on = captions.getAttribute("aria-pressed") !== "true";
  captions.setAttribute("aria-pressed", String(on));
  document.body.classList.toggle("captions", on);
  localStorage.setItem("albums.captions", on ? "1" : "0");
});
if (localStorage.getItem("albums.captions") === "1") captions.click();

// N makes a new album from anywhere but a text field or a dialog.
document.addEventListener("keydown", (event) => {
  if (event.key.toLowerCase() !== "n" || event.ctrlKey || event.metaKey || event.altKey || state.lift) return;
  if (event.target.closest?.("input, select, textarea, dialog") || document.querySelector("dialog[open]")) return;
  event.preventDefault();
  createAlbum();
});

// A phone starts with three photos across, as the photo apps of phones do.
if (isNarrow()) zoomTo(110, null, undefined, undefined, { quiet: true });
state.panes = [new Pane(0), new Pane(1)];
// Who is signed in and the album list are read at once, then both panes at
// once: the first tiles wait for two round trips, not five.
await Promise.all([showSignedIn(), loadAlbums()]);
await Promise.all([state.panes[0].open(state.albums[0]?.name ?? null), state.panes[1].open(state.albums[1]?.name ?? null)]);
// Every committed change, from here or elsewhere, reads the album list (and
// with it the history's buttons) again.
library.addEventListener("change", async (event) => {
  // One read per write: a command that read the list again itself (the read
  // may still be under way) shows its change already.
  await albumListRead().catch(() => {});
  for (const pane of state.panes) if (pane.showsLibrary) pane.timeline.changed();
  if (event.detail && reflects(state.tree, event.detail)) return;
  loadAlbums().catch(() => {});
});
// A role or admin given or taken shows at once: who is signed in says it again.
library.addEventListener("rights", () => showSignedIn().catch(() => {}));
// The stream ended for good: signed out elsewhere, disabled or removed.
library.addEventListener("closed", () => goToSignIn().catch(() => {}));
listen();
document.body.dataset.ready = "true";
