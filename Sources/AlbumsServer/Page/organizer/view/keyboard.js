// The keyboard: everything a drag does (lift, move, drop, cancel), and
// every action on the selection, each step announced.

import { propose } from "../core/api.js";
import { operationFor } from "./drag.js";
import { landingPosition } from "../model/drop-model.js";
import { perform, refused } from "../writes/live.js";
import { openTransferDialog, removeSelected, showItemMenu } from "./actions.js";
import { carried } from "../model/selection.js";
import { say, state } from "../core/state.js";
import { openViewer } from "./viewer.js";
import { zoomBy } from "./zoom.js";

/// The keys that step through an album's rows (album-layout.js), or carry a lift along them.
const STEPS = new Set(["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp", "Home", "End"]);

/// Keys on a pane's rows.
export async function gridKeyDown(event, pane) {
  if (!pane.album) return;
  if (state.lift) { liftKey(event); return; }
  const command = event.ctrlKey || event.metaKey;
  const index = Math.max(0, pane.indexOf(pane.active));
  if (STEPS.has(event.key) && pane.count) {
    event.preventDefault();
    const next = pane.layout.step(index, event.key);
    const item = await pane.load(next);
    if (!item) return;
    await pane.choose(item.item_id, { extend: event.shiftKey });
    pane.setActive(item.item_id);
    say(`${(next + 1).toLocaleString("en")} of ${pane.count.toLocaleString("en")}: ${item.file ?? "loading"}${pane.selected.size > 1 ? `, ${pane.selected.size} selected` : ""}`);
  } else if (event.key === " " && command && pane.active !== null) {
    event.preventDefault();
    pane.choose(pane.active, { toggle: true });
    say(`${pane.selectionWords()} selected.`);
  } else if (event.key === " " && pane.active !== null) {
    event.preventDefault();
    lift(pane);
  } else if (event.key.toLowerCase() === "a" && command) {
    event.preventDefault();
    pane.selectAll();
  } else if (event.key === "Escape" && pane.selected.size) {
    event.preventDefault();
    pane.clearSelection();
  } else if ((event.key === "Delete" || event.key === "Backspace") && pane.active !== null) {
    event.preventDefault();
    if (!pane.selected.size) pane.choose(pane.active);
    removeSelected(pane);
  } else if (event.key === "Enter" && pane.active !== null) {
    event.preventDefault();
    openViewer(pane, pane.active);
  } else if (event.key.toLowerCase() === "i" && !command && pane.active !== null) {
    openViewer(pane, pane.active, { facts: true });
  } else if (event.key.toLowerCase() === "m" && !command && pane.active !== null) {
    event.preventDefault();
    if (!pane.selected.size) pane.choose(pane.active);
    openTransferDialog(pane, event.shiftKey);
  } else if ((event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) && pane.active !== null) {
    event.preventDefault();
    const tile = pane.elements.get(pane.active);
    const box = tile?.getBoundingClientRect() ?? pane.viewport.getBoundingClientRect();
    showItemMenu(pane, pane.active, box.left + box.width / 2, box.top + box.height / 2);
  } else if (event.key === "+" || event.key === "=") {
    zoomBy(24, pane);
  } else if (event.key === "-") {
    zoomBy(-24, pane);
  }
}

function lift(pane) {
  const items = carried({ selected: pane.selected, ids: pane.ids, id: pane.active });
  const first = pane.indexOf(items[0]);
  state.lift = { pane, items, words: pane.wordsFor(items), target: pane, slot: first, copy: false };
  pane.render();
  showLift(`Lifted ${state.lift.words} from position ${first + 1}. Arrows choose where, Tab carries them to the other album, C copies, Enter drops, Escape puts them back.`);
}

/// The slot as a position in the album without the lifted items (when moving within it).
function liftPosition(lift) {
  return landingPosition({
    carriedPositions: lift.items.map((id) => lift.pane.indexOf(id) + 1),
    slot: lift.slot, sameAlbum: lift.target === lift.pane, copy: lift.copy,
  });
}

function showLift(message) {
  const lift = state.lift;
  for (const pane of state.panes) pane.unmark();
  lift.target.mark(lift.slot, lift.copy ? "copy" : "");
  lift.target.reveal(Math.min(lift.slot, lift.target.count - 1));
  say(message ?? `${lift.copy ? "Copy" : "Move"} to position ${liftPosition(lift)} of ${lift.target.name}.`);
}

function liftKey(event) {
  const lift = state.lift;
  const target = lift.target;
  const count = target.count;
  event.preventDefault();
  if (STEPS.has(event.key)) {
    lift.slot = Math.max(0, Math.min(count, target.layout.slotStep(lift.slot, event.key)));
    showLift();
  } else if (event.key === "Tab") {
    const other = state.panes.find((pane) => pane !== target && pane.album);
    if (!other) { say("Open another album on the other side first, or use M (Move to…)."); return; }
    lift.target = other;
    lift.slot = Math.min(lift.slot, other.count);
    other.viewport.focus({ preventScroll: true });
    showLift();
  } else if (event.key.toLowerCase() === "c") {
    lift.copy = !lift.copy;
    showLift();
  } else if (event.key === "Escape") {
    state.lift = null;
    for (const pane of state.panes) { pane.unmark(); pane.render(); }
    lift.pane.viewport.focus({ preventScroll: true });
    say("Put back; nothing moved.");
  } else if (event.key === "Enter") {
    keyboardDrop(lift);
  }
}

async function keyboardDrop(lift) {
  state.lift = null;
  for (const pane of state.panes) pane.unmark();
  const operation = operationFor(lift.pane, lift.items, { album: lift.target.name, slot: lift.slot, pane: lift.target }, lift.copy);
  try {
    const proposal = await propose(operation);
    if (!proposal.allowed) { lift.pane.render(); say(`Not dropped: ${proposal.reason.message}`, true); return; }
    await perform(operation);
    lift.pane.selected.clear();
    const landed = await lift.target.load(operation.at - 1);
    if (landed) {
      lift.target.selected = new Set([landed.item_id]);
      lift.target.setActive(landed.item_id);
    }
    lift.target.viewport.focus({ preventScroll: true });
    say(`${lift.copy ? "Copied" : "Moved"} ${lift.words} to position ${operation.at} of ${lift.target.name}.`);
  } catch (error) {
    lift.pane.render();
    await refused(error, "Not dropped");
  }
}
