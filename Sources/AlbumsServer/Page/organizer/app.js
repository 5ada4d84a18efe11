// The organizer page of `albums serve`: albums side by side in justified rows,
// drag and drop through the server's proposals, a non-drag way to do
// every drag, files through placeholders, the viewer, and live change
// sets from every writer. Plain modern JavaScript in ES modules by job,
// no dependencies and no build step: the binary carries these files.
// Its folders are its layers:
//
// core/
//   state.js          what the modules share; the status line
//   api.js            the JSON API
// model/ (pure, tested under node)
//   item-window.js    the items read of an album; change sets replayed on them
//   album-layout.js   an album's rows, laid out in chunks as they are read; slots and arrow steps
//   timeline-model.js the timeline's days, rows and arrow steps
//   search-query.js   what the search field makes of what is typed: chips, suggestions
//   selection.js      click, Ctrl-click, Shift-click
//   drop-model.js     the operation a drop asks for
//   tree-model.js     the tree's rows, where a drag or lift lands, the move it asks for
// writes/
//   live.js           writes, and the change stream
// view/
//   photo-grid.js     the grid an album and the timeline both are: selecting, focus, the selection bar
//   pane.js           one album in justified rows, only what is in view drawn and read
//   timeline.js       the library as a timeline: search, chips, months, adding to albums
//   drag.js           pointer drags of photos
//   keyboard.js       the keyboard: lift, move, drop, and the actions
//   actions.js        remove, Move to…, Copy to…, a photo's menu
//   album-list.js     the album list, a tree: read, drawn, walked; the drawer
//   album-commands.js create, rename in place, delete, lock, sort albums and folders
//   album-menus.js    the album and folder menus
//   tree-drag.js      reorder and file albums and folders, by drag or by keyboard
//   menus.js          popover menus at a point, walked with the arrows
//   files.js          uploads from the desktop and the file picker
//   viewer.js         one photo large, the slideshow
//   marks.js          the viewer's caption, heart, stars, rejected, title and keywords
//   zoom.js           the rows' height
//   history.js        undo and redo
//   people.js         who is signed in, signing out, sharing an album
// ../common/justified-rows.js  photos at their shapes in rows that fill the width (pure; the share page's too)
//
// They import in one direction: core → model → writes (which announce and
// never call a view) → view → this file, which wires them
// (Tests/Page/module-graph.test.mjs reads each module's layer from its folder).

import { contextMenu, init as initActions, openTransferDialog, wireSelectionBar } from "./view/actions.js";
import { createAlbum, createSmartAlbum, freezeAlbum, init as initAlbumCommands } from "./view/album-commands.js";
import { albumListRead, init as initAlbumList, loadAlbums, renderAlbumList } from "./view/album-list.js";
import { init as initAlbumMenus, showAlbumMenu } from "./view/album-menus.js";
import { init as initTreeDrag } from "./view/tree-drag.js";
import { init as initDrag, pointerDown, touchMoveGuard } from "./view/drag.js";
import { acceptFiles, init as initFiles, pickFiles } from "./view/files.js";
import { init as initHistory } from "./view/history.js";
import { gridKeyDown } from "./view/keyboard.js";
import { library, listen } from "./writes/live.js";
import { Pane, tileHooks } from "./view/pane.js";
import { timelineHooks } from "./view/timeline.js";
import { goToSignIn, init as initPeople, showSignedIn } from "./view/people.js";
import { isNarrow, state } from "./core/state.js";
import { reflects } from "./model/tree-model.js";
import { init as initViewer, openViewer, startSlideshow } from "./view/viewer.js";
import { init as initZoom, pinchToZoom, zoomTo } from "./view/zoom.js";

// The views look their elements up and listen, now that the page is there
// (none does at import, so each loads under node's tests). The album list
// comes before the modules that listen on it; the rest in the order their
// document-wide keys are heard.
for (const init of [initFiles, initHistory, initAlbumList, initAlbumCommands, initViewer, initActions, initPeople, initAlbumMenus, initTreeDrag, initDrag, initZoom]) init();

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
