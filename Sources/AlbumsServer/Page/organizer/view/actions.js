// Actions on the selected photos that need no drag: remove, "Move to…" and
// "Copy to…" (the pointer alternative to dragging), and the menu of a photo.

import { setCover } from "./album-commands.js";
import { propose } from "../core/api.js";
import { addPhotosOperation, chosenPosition, dropOperation } from "../model/drop-model.js";
import { perform, refused } from "../writes/live.js";
import { menuKeys, showMenuAt } from "./menus.js";
import { element, say, state } from "../core/state.js";
import { openViewer } from "./viewer.js";

/// Removes the selected photos from the album (the photos stay in the
/// library; undo brings them back).
export async function removeSelected(pane) {
  const ids = pane.selectedIds();
  if (!ids.length) { say("Select the photos to remove first."); return; }
  const first = pane.indexOf(ids[0]);
  const words = pane.wordsFor(ids);
  const operation = {
    op: "remove", items: ids.map((id) => `${pane.name}:${pane.indexOf(id) + 1}`),
    expect_revision: { [pane.name]: pane.album.revision },
  };
  try {
    await perform(operation);
    pane.selected.clear();
    const next = await pane.load(Math.min(first, pane.count - 1));
    if (next) pane.setActive(next.item_id); else pane.render();
    say(`Removed ${words} from ${pane.name}; they stay in the library. Undo (Ctrl+Z) puts them back.`);
  } catch (error) {
    await refused(error, "Not removed");
  }
}

// MARK: Move to… and Copy to…

let dialog;
let form;
let albumChoice;
let positionInput;
let verdictLine;
let submit;
let transfer = null;   // { pane, ids, words, copy, asked }

/// Asks where the selected photos of `pane` go, showing the proposal as a drag would.
export function openTransferDialog(pane, copy) {
  const ids = pane.selectedIds();
  if (!ids.length) { say("Select the photos first."); return; }
  // From the library's timeline photos are added to an album: a copy.
  const library = Boolean(pane.isLibrary);
  transfer = { pane, ids, words: pane.wordsFor(ids), copy: copy || library, asked: 0, library };
  document.getElementById("transfer-title").textContent = `${library ? "Add" : copy ? "Copy" : "Move"} ${transfer.words} to…`;
  submit.textContent = library ? "Add" : copy ? "Copy" : "Move";
  const other = state.panes.find((each) => each !== pane && each.album);
  // Named by path, so that an album filed in a folder is found where it is.
  const pathOf = (album) => state.tree?.albums.get(album.id)?.path ?? album.name;
  albumChoice.replaceChildren(...state.albums.map((album) =>
    element("option", { value: album.name, textContent: `${album.locked ? "🔒 " : ""}${pathOf(album)} (${album.count})` })));
  albumChoice.value = other?.name ?? (state.albums.find((album) => album.name !== pane.name) ?? state.albums[0]).name;
  form.elements.place.value = "end";
  positionInput.value = 1;
  dialog.showModal();
  albumChoice.focus();
  ask();
}

/// The operation the dialog describes now, or null while the position typed is not one.
function operationNow() {
  const { pane, ids, copy } = transfer;
  const at = chosenPosition(form.elements.place.value, positionInput.value);
  if (at === undefined) return null;
  const to = albumChoice.value;
  if (transfer.library) {
    return addPhotosOperation({ photoIds: ids, to: { name: to, revision: state.albums.find((album) => album.name === to)?.revision }, slot: at === null ? null : at - 1 });
  }
  const operation = dropOperation({
    from: { name: pane.name, revision: pane.album.revision },
    positions: ids.map((id) => pane.indexOf(id) + 1),
    to: { name: to, revision: state.albums.find((album) => album.name === to)?.revision },
    copy,
  });
  if (at !== null) operation.at = at;
  return operation;
}

async function ask() {
  const asked = ++transfer.asked;
  positionInput.disabled = form.elements.place.value !== "at";
  const operation = operationNow();
  if (!operation) { show(false, "Type a position: a whole number from 1."); return; }
  let proposal;
  try {
    proposal = await propose(operation);
  } catch (error) {
    proposal = { allowed: false, reason: { message: error.message } };
  }
  if (!transfer || asked !== transfer.asked) return;
  const count = transfer.words;
  const where = operation.at ? `at position ${operation.at} of ${operation.to}` : `at the end of ${operation.to}`;
  if (!proposal.allowed) show(false, `Not allowed: ${proposal.reason.message}`);
  else if (proposal.verdict === "no_op") show(true, `Nothing would change: the ${count} already ${transfer.ids.length === 1 ? "stands" : "stand"} there.`);
  else show(true, `${transfer.library ? "Adds" : transfer.copy ? "Copies" : "Moves"} ${count} ${where}.`);
}

function show(allowed, text) {
  verdictLine.textContent = text;
  verdictLine.classList.toggle("forbidden", !allowed);
  submit.disabled = !allowed;
}

/// Makes the photo `itemId` the cover of its pane's album.
export function useAsCover(pane, itemId) {
  const item = pane.itemAt(pane.indexOf(itemId));
  if (!item || item.placeholder_id !== null) { say("A photo still loading cannot be the cover yet.", true); return; }
  setCover(pane.name, item.photo_id, item.file);
}

// MARK: A photo's menu (right click, long press with a mouse, the menu key)

let menu;
let menuTarget = null;

/// Shows the menu of the photo `itemId` at (x, y); it acts on the selection (which includes it).
export function showItemMenu(pane, itemId, x, y) {
  if (!pane.selected.has(itemId)) pane.choose(itemId);
  menuTarget = { pane, itemId };
  const count = pane.selected.size;
  menu.querySelector("[data-action=move]").textContent = `Move ${count > 1 ? `${count} photos ` : ""}to…`;
  menu.querySelector("[data-action=copy]").textContent = `Copy ${count > 1 ? `${count} photos ` : ""}to…`;
  menu.querySelector("[data-action=remove]").textContent = `Remove ${count > 1 ? `${count} photos ` : ""}from album`;
  menu.querySelector("[data-action=cover]").hidden = count > 1;
  showMenuAt(menu, x, y);
}

export function contextMenu(event, pane, itemId) {
  event.preventDefault();
  if (event.pointerType === "touch") return;  // a resting finger selects and drags instead
  showItemMenu(pane, itemId, event.clientX, event.clientY);
}

/// The selection bar's buttons of each pane.
export function wireSelectionBar(pane) {
  const bar = pane.selectionBar;
  bar.querySelector(".move-to").addEventListener("click", () => openTransferDialog(pane, false));
  bar.querySelector(".copy-to").addEventListener("click", () => openTransferDialog(pane, true));
  bar.querySelector(".remove").addEventListener("click", () => removeSelected(pane));
  bar.querySelector(".select-all").addEventListener("click", () => pane.selectAll());
  bar.querySelector(".use-as-cover").addEventListener("click", () => { const [only] = pane.selected; if (only !== undefined) useAsCover(pane, only); });
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  dialog = document.getElementById("transfer-dialog");
  form = dialog.querySelector("form.transfer");
  albumChoice = document.getElementById("transfer-album");
  positionInput = document.getElementById("transfer-position");
  verdictLine = document.getElementById("transfer-verdict");
  submit = document.getElementById("transfer-submit");
  form.addEventListener("input", () => ask());
  form.addEventListener("change", () => ask());
  dialog.addEventListener("close", () => { transfer = null; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (event.submitter?.value === "cancel") { dialog.close(); say("Nothing moved."); return; }
    const operation = operationNow();
    if (!operation || !transfer) return;
    const { pane, ids, words, copy } = transfer;
    dialog.close();
    try {
      const answer = await perform(operation);
      pane.added?.(ids, operation.to);
      pane.selected.clear();
      pane.render();
      const where = operation.at ? `to position ${operation.at} of ${operation.to}` : `to the end of ${operation.to}`;
      say(`${pane.isLibrary ? "Added" : answer.verdict === "copy" || copy ? "Copied" : "Moved"} ${words} ${where}.`);
    } catch (error) {
      await refused(error, copy ? "Not copied" : "Not moved");
    }
    pane.viewport.focus({ preventScroll: true });
  });
  menu = document.getElementById("item-menu");
  menu.addEventListener("click", (event) => {
    const action = event.target.closest("button")?.dataset.action;
    if (!action || !menuTarget) return;
    const { pane, itemId } = menuTarget;
    menu.hidePopover();
    if (action === "open") openViewer(pane, itemId);
    else if (action === "move" || action === "copy") openTransferDialog(pane, action === "copy");
    else if (action === "remove") removeSelected(pane);
    else if (action === "cover") useAsCover(pane, itemId);
    else if (action === "select-all") pane.selectAll();
  });
  menuKeys(menu);
  menu.addEventListener("toggle", (event) => {
    if (event.newState === "closed" && menuTarget) menuTarget.pane.viewport.focus({ preventScroll: true });
  });
}
