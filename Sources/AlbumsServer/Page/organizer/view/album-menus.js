// The album menu (a pane's ⋯ button, right click or the menu key on an
// album) and the folder menu: every command of an album or a folder,
// without a drag or a shortcut.

import { openShareDialog } from "./people.js";
import { currentPane, state } from "../core/state.js";
import { startSlideshow } from "./viewer.js";
import { menuKeys, showMenuAt } from "./menus.js";
import { albumNamed, list, listState, rowOf } from "./album-list.js";
import {
  confirmDelete, confirmFolderDelete, createAlbumIn, createFolder, renameFolderInPlace, renameInPlace, freezeAlbum, setCover, setFolderLocked, setLocked, sortAlbum,
} from "./album-commands.js";

let menu;
let menuAlbum = null;

export function showAlbumMenu(name, x, y, returnFocus = null) {
  const album = albumNamed(name);
  if (!album) return;
  menuAlbum = { name, returnFocus };
  menu.querySelector("[data-action=lock]").textContent = album.locked ? "Unlock" : "Lock";
  menu.querySelector("[data-action=first-cover]").hidden = !album.cover_chosen;
  menu.querySelector("[data-action=freeze]").hidden = !album.smart;
  for (const sort of menu.querySelectorAll("[data-action=sort]")) sort.hidden = Boolean(album.smart);
  menu.querySelector("h3").textContent = name;
  showMenuAt(menu, x, y);
}

let folderMenu;
let menuFolder = null;

export function showFolderMenu(folder, x, y, returnFocus = null) {
  menuFolder = { folder, returnFocus };
  folderMenu.querySelector("[data-action=lock]").textContent = folder.locked ? "Unlock" : "Lock";
  folderMenu.querySelector("h3").textContent = folder.path;
  showMenuAt(folderMenu, x, y);
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  menu = document.getElementById("album-menu");
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
    else if (action === "first-cover") setCover(name, null);
    else if (action === "freeze") freezeAlbum(name);
    else if (action === "share") openShareDialog(name);
    else if (action === "slideshow") {
      const pane = state.panes.find((each) => each.name === name) ?? currentPane();
      if (pane.name !== name) await pane.open(name);
      startSlideshow(pane);
    }
  });
  menuKeys(menu);
  menu.addEventListener("toggle", (event) => {
    if (event.newState === "closed" && menuAlbum?.returnFocus && !document.querySelector("dialog[open]") && !listState.renaming) menuAlbum.returnFocus.focus();
  });
  folderMenu = document.getElementById("folder-menu");
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
    if (event.newState === "closed" && menuFolder?.returnFocus && !document.querySelector("dialog[open]") && !listState.renaming) menuFolder.returnFocus.focus();
  });
  // Right click on a row (a resting finger drags instead), and the menu key or Shift+F10.
  list.addEventListener("contextmenu", (event) => {
    const row = rowOf(event.target);
    if (!row) return;
    event.preventDefault();
    if (event.pointerType === "touch") return;
    if (row.node.kind === "folder") showFolderMenu(row.node, event.clientX, event.clientY);
    else showAlbumMenu(row.node.name, event.clientX, event.clientY);
  });
  list.addEventListener("keydown", (event) => {
    const row = rowOf(event.target);
    if (!row || listState.reorder?.lifted || !(event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey))) return;
    event.preventDefault();
    const entry = event.target.closest("li[data-key]");
    const box = entry.getBoundingClientRect();
    if (row.node.kind === "folder") showFolderMenu(row.node, box.left + 24, box.bottom, entry);
    else showAlbumMenu(row.node.name, box.left + 24, box.bottom, entry);
  });
}
