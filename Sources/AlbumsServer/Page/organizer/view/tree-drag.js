// Reordering and filing albums and folders in the list: by drag (a
// finger rests first), or by keyboard (Space lifts, arrows carry, Enter
// puts down, Escape puts back), with the server's proposal while it hovers.

import { propose } from "../core/api.js";
import { perform, refused } from "../writes/live.js";
import { element, say, state } from "../core/state.js";
import { atTheEnd, describeTarget, isWhereItIs, keyboardTargets, moveOperation, pointerTarget } from "../model/tree-model.js";
import {
  keyOf, list, listState, openFolders, rememberOpenFolders, renderAlbumList, rowFor, rowOf, showWritten, shownRows,
} from "./album-list.js";

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
  if (listState.reorder !== current || asked !== current.asked) return;
  current.proposal = proposal;
  markTarget(current.target, !proposal.allowed);
  const where = describeTarget(state.tree, current.node, current.target);
  if (!proposal.allowed) say(`Cannot move ${current.node.name} ${where}: ${proposal.reason.message}`, true);
  else say(proposal.verdict === "no_op" ? `${current.node.name} stays where it is.` : `Move ${current.node.name} ${where}.`);
}

async function dropReorder(current) {
  listState.reorder = null;
  markTarget(null);
  document.body.classList.remove("reordering");
  const { node, target } = current;
  const where = describeTarget(state.tree, node, target);
  if (current.proposal && !current.proposal.allowed) { say(`Not moved: ${current.proposal.reason.message}`, true); renderAlbumList(); return; }
  if (isWhereItIs(node, target)) { renderAlbumList(); rowFor(keyOf(node))?.focus(); say(`${node.name} stays where it was.`); return; }
  try {
    const written = await perform(moveOperation(state.tree, node, target));
    if (target.parentId !== null) { openFolders.add(target.parentId); rememberOpenFolders(); }
    await showWritten(written);
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
      const row = shownRows()[index];
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

function rowPointerDown(event, row, entry) {
  if (event.button !== 0 || listState.renaming || event.target.closest("input")) return;
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
      listState.reorder = { node: row.node, target: null, asked: 0, proposal: null };
      entry.classList.add("lifted");
      document.body.classList.add("reordering");
    }
    const target = targetAt(row.node, moveEvent.clientY);
    const reorder = listState.reorder;
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
    const lifted = listState.reorder;
    upEvent.preventDefault();
    // The click that follows a drag must not open the album or the folder.
    setTimeout(() => { if (listState.reorder === lifted) listState.reorder = null; }, 0);
    if (upEvent.type === "pointercancel" || !lifted.target) { listState.reorder = null; markTarget(null); renderAlbumList(); say("Nothing moved."); return; }
    dropReorder(lifted);
  };
  entry.addEventListener("pointermove", move);
  entry.addEventListener("pointerup", up);
  entry.addEventListener("pointercancel", up);
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  list.addEventListener("touchmove", (event) => { if (fingerOnEntry() || listState.reorder) event.preventDefault(); }, { passive: false });
  list.addEventListener("pointerdown", (event) => {
    const row = rowOf(event.target);
    if (row) rowPointerDown(event, row, event.target.closest("li[data-key]"));
  });
  // The keyboard: Space lifts the row; while it is lifted, every key is the carrying's (heard first, before the tree's own keys).
  list.addEventListener("keydown", (event) => {
    const reorder = listState.reorder;
    if (!reorder?.lifted) return;
    event.preventDefault();
    event.stopPropagation();
    const node = reorder.node;
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
      listState.reorder = null;
      markTarget(null);
      rowFor(keyOf(node))?.classList.remove("lifted");
      say(`Put back; ${node.name} stays where it was.`);
    }
  }, true);
  list.addEventListener("keydown", (event) => {
    const row = rowOf(event.target);
    if (!row || event.key !== " " || event.target.closest("input")) return;
    event.preventDefault();
    const node = row.node;
    const targets = keyboardTargets(state.tree, shownRows(), node);
    const target = targets.find((each) => isWhereItIs(node, each)) ?? targets[0];
    listState.reorder = { node, target, targets, asked: 0, proposal: null, lifted: true };
    rowFor(keyOf(node))?.classList.add("lifted");
    markTarget(target);
    say(`Lifted ${node.name} ${describeTarget(state.tree, node, target, { from: true })}. Up and down choose its place (into a folder, or between albums and folders), Enter puts it there, Escape puts it back.`);
  });
}
