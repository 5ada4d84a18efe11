// Creating, renaming (in place, in the list), deleting, locking,
// sorting and choosing the cover of albums and folders, with the dialogs
// that ask first; each is one
// operation through live.js, and the list shows it before what follows
// (typing the new name) looks for its row: read once, by the write or by
// the change stream, whichever comes first.

import { api } from "../core/api.js";
import { perform, refused } from "../writes/live.js";
import { contentsText, element, plural, say, state } from "../core/state.js";
import { searchOf } from "../model/search-query.js";
import { unusedName } from "../model/tree-model.js";
import {
  albumNamed, entryFor, list, listState, openAlbum, openDrawer, openFolders, rememberOpenFolders, renderAlbumList, rowFor, rowOf, showWritten,
} from "./album-list.js";

/// Creates an album named "New album" (or "New album 2", …), opens it, and lets the name be typed at once.
export async function createAlbum() {
  const name = unusedName("New album", new Set(state.albums.map((album) => album.name)));
  try {
    const written = await perform({ op: "create_album", name });
    await showWritten(written);
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
    const written = await perform({ op: "rename_album", album: name, name: wanted, expect_revision: { [name]: album.revision } });
    await showWritten(written);
    entryFor(wanted)?.focus();
    say(`Renamed ${name} to ${wanted}.`);
  });
}

/// Turns a row into a text field holding `name`; Enter (or leaving it)
/// calls `rename` with the new name, Escape keeps the old one.
function editInPlace(key, name, rename) {
  openDrawer();
  const entry = rowFor(key);
  if (!entry || listState.renaming) return;
  listState.renaming = key;
  const field = element("input", { type: "text", value: name, className: "rename", spellcheck: false });
  field.setAttribute("aria-label", `New name for ${name}`);
  entry.replaceChildren(field);
  field.focus();
  field.select();
  let finished = false;
  const finish = async (keep) => {
    if (finished) return;
    finished = true;
    listState.renaming = null;
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

let deleteDialog;

/// Asks before deleting an album, saying what goes and what stays.
export function confirmDelete(name) {
  const album = albumNamed(name);
  if (!album) return;
  document.getElementById("delete-title").textContent = `Delete the album ${name}?`;
  const photos = album.count - album.pending;
  document.getElementById("delete-text").textContent =
    `Its ${contentsText(photos, album.videos)} stay in the library; only the album and its order go.` +
    (album.pending ? ` ${plural(album.pending, "photo")} still loading will be cancelled.` : "") +
    " Undo (Ctrl+Z) brings it back.";
  deleteDialog.returnValue = "";
  deleteDialog.dataset.album = name;
  deleteDialog.showModal();
  deleteDialog.querySelector("button[value=cancel]").focus();
}

export async function setLocked(name, locked) {
  try {
    const written = await perform({ op: locked ? "lock_album" : "unlock_album", album: name });
    await showWritten(written);
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

/// Creates a folder ("New folder", "New folder 2", …) at the top level or
/// inside `parent`, and lets its name be typed at once.
export async function createFolder(parent = null) {
  const siblings = parent ? parent.children : state.tree.roots;
  const name = unusedName("New folder", new Set(siblings.map((node) => node.name)));
  try {
    const answer = await perform({ op: "create_folder", name, into: parent ? parent.path : "/" });
    if (parent) { openFolders.add(parent.id); rememberOpenFolders(); }
    await showWritten(answer);
    const id = answer.folder_changes.find((change) => change.events.includes("created"))?.folder_id;
    const folder = state.tree.folders.get(id);
    say(`Created the folder ${name}. Type its name, then Enter.`);
    if (folder) renameFolderInPlace(folder);
  } catch (error) {
    await refused(error, "Not created");
  }
}

/// Creates an album inside a folder and opens it.
export async function createAlbumIn(folder) {
  const name = unusedName("New album", new Set(state.albums.map((album) => album.name)));
  try {
    const written = await perform({ op: "create_album", name, into: folder.path });
    openFolders.add(folder.id);
    rememberOpenFolders();
    await showWritten(written);
    await openAlbum(name);
    say(`Created ${name} in ${folder.name}. Type its name, then Enter.`);
    renameInPlace(name);
  } catch (error) {
    await refused(error, "Not created");
  }
}

export function renameFolderInPlace(folder) {
  editInPlace(`folder:${folder.id}`, folder.name, async (wanted) => {
    const written = await perform({ op: "rename_folder", folder: folder.path, name: wanted });
    await showWritten(written);
    rowFor(`folder:${folder.id}`)?.focus();
    say(`Renamed the folder ${folder.name} to ${wanted}.`);
  });
}

let folderDeleteDialog;

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

export async function setFolderLocked(folder, locked) {
  try {
    const written = await perform({ op: locked ? "lock_folder" : "unlock_folder", folder: folder.path });
    await showWritten(written);
    say(locked ? `Locked the folder ${folder.name}: nothing enters, leaves or moves in it until it is unlocked.` : `Unlocked the folder ${folder.name}.`);
  } catch (error) {
    await refused(error, locked ? "Not locked" : "Not unlocked");
  }
}

/// Makes a photo the album's cover (null: its first photo stands for it again).
export async function setCover(name, photoId, fileName = "The photo") {
  try {
    const written = await perform({ op: "set_album_cover", album: name, photo: photoId === null ? null : `id:${photoId}` });
    await showWritten(written);
    if (written.verdict === "no_op") say(photoId === null ? `${name} already shows its first photo.` : `${fileName} is the cover of ${name} already.`);
    else say(photoId === null ? `${name} shows its first photo as its cover again.` : `${fileName} is now the cover of ${name}. Undo (Ctrl+Z) gives back the one before.`);
  } catch (error) {
    await refused(error, "Cover not changed");
  }
}

/// Keeps what the chips find as a smart album named after them, then lets
/// its name be typed at once, as a new album's is.
export async function createSmartAlbum(chips) {
  const name = unusedName(chips.map((each) => each.label).join(", ").slice(0, 60), new Set(state.albums.map((album) => album.name)));
  try {
    const written = await perform({ op: "create_smart_album", name, search: searchOf(chips) });
    await showWritten(written);
    await openAlbum(name);
    say(`Kept as the smart album ${name}: it shows what the search finds, always current. Type its name, then Enter.`);
    renameInPlace(name);
  } catch (error) {
    await refused(error, "Not kept");
  }
}

let freezeDialog;

/// Asks before a smart album becomes an ordinary one holding what it shows
/// now: what it will hold, and who will see those photos in it. What each
/// person saw in it was their own search; frozen, everyone it is shared
/// with sees the photos the one who froze it saw.
export async function freezeAlbum(name) {
  const album = albumNamed(name);
  document.getElementById("freeze-title").textContent = `Make an album of ${name}?`;
  document.getElementById("freeze-text").textContent =
    `It will hold the ${plural(album?.count ?? 0, "photo")} it shows you now, newest first, to arrange by hand. Undo (Ctrl+Z) makes it a smart album again.`;
  document.getElementById("freeze-audience").textContent = await audienceOf(name);
  freezeDialog.returnValue = "";
  freezeDialog.dataset.album = name;
  freezeDialog.showModal();
  freezeDialog.querySelector("button[value=cancel]").focus();
}

/// Who will see a frozen album's photos: its people, by name, for its owner
/// (who may read its roles); for anyone else, everyone it is shared with.
async function audienceOf(name) {
  try {
    const { roles } = await api(`/api/albums/${encodeURIComponent(name)}/roles`);
    const people = [...new Set(roles.map((role) => role.person))];
    if (people.length === 0) return "It is shared with nobody: you, admins and anyone holding one of its links will see these photos in it.";
    return `${new Intl.ListFormat("en", { type: "conjunction" }).format(people)} will see these photos in it, as will admins and anyone holding one of its links.`;
  } catch {
    return "Everyone it is shared with will see these photos in it. If that shows someone photos they cannot see now, only its owner may make an album of it.";
  }
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  deleteDialog = document.getElementById("delete-dialog");
  deleteDialog.addEventListener("close", async () => {
    const name = deleteDialog.dataset.album;
    if (deleteDialog.returnValue !== "delete" || !name) return;
    const album = albumNamed(name);
    try {
      const written = await perform({ op: "delete_album", album: name, force: album?.pending > 0, expect_revision: album ? { [name]: album.revision } : undefined });
      await showWritten(written);
      say(`Deleted the album ${name}${album ? ` (${contentsText(album.count - album.pending, album.videos)} stay in the library)` : ""}. Undo (Ctrl+Z) brings it back.`);
    } catch (error) {
      await refused(error, "Not deleted");
    }
  });
  folderDeleteDialog = document.getElementById("folder-delete-dialog");
  folderDeleteDialog.addEventListener("close", async () => {
    const choice = folderDeleteDialog.returnValue;
    const folder = state.tree.folders.get(Number(folderDeleteDialog.dataset.folder));
    if (!folder || !["refuse", "move", "delete"].includes(choice)) return;
    const operation = { op: "delete_folder", folder: folder.path };
    if (choice !== "refuse") operation.contents = choice;
    try {
      const written = await perform(operation);
      await showWritten(written);
      const what = choice === "move" ? "; what it held took its place" : choice === "delete" ? ` and its ${plural(folder.albumCount, "album")} (their photos stay in the library)` : "";
      say(`Deleted the folder ${folder.name}${what}. Undo (Ctrl+Z) brings it back.`);
    } catch (error) {
      await refused(error, "Not deleted");
    }
  });
  // The list's own ways in: double click or F2 renames, Delete asks to delete.
  list.addEventListener("dblclick", (event) => {
    const row = rowOf(event.target);
    if (!row || event.target.closest("input")) return;
    event.preventDefault();
    if (row.node.kind === "folder") renameFolderInPlace(row.node); else renameInPlace(row.node.name);
  });
  list.addEventListener("keydown", (event) => {
    const row = rowOf(event.target);
    if (!row || event.target.closest("input") || listState.reorder?.lifted) return;
    const isFolder = row.node.kind === "folder";
    if (event.key === "F2") {
      event.preventDefault();
      if (isFolder) renameFolderInPlace(row.node); else renameInPlace(row.node.name);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      if (isFolder) confirmFolderDelete(row.node); else confirmDelete(row.node.name);
    }
  });
  document.getElementById("new-album").addEventListener("click", () => createAlbum());
  document.getElementById("new-folder").addEventListener("click", () => createFolder());
  freezeDialog = document.getElementById("freeze-dialog");
  freezeDialog.addEventListener("close", async () => {
    const name = freezeDialog.dataset.album;
    if (freezeDialog.returnValue !== "freeze" || !name) return;
    try {
      const written = await perform({ op: "freeze_album", album: name });
      await showWritten(written);
      await openAlbum(name);
      say(`${name} is an ordinary album now, holding the photos it showed, newest first: arrange them by hand. Undo (Ctrl+Z) makes it a smart album again.`);
    } catch (error) {
      await refused(error, "Not made an album");
    }
  });
}
