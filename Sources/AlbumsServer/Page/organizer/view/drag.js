// Pointer drags of photos: mouse, pen and touch alike. While the pointer
// moves, the server's proposal says whether the drop is allowed; a refused
// drop snaps back and says why.

import { propose } from "../core/api.js";
import { addPhotosOperation, dropOperation } from "../model/drop-model.js";
import { perform, refused } from "../writes/live.js";
import { carried } from "../model/selection.js";
import { EDGE, element, say, state } from "../core/state.js";

/// How long a finger rests on a photo before it lifts: a quicker swipe scrolls.
const LONG_PRESS_MS = 350;

let ghost;

/// The operation that lands the carried items of `from` at `target`.
export function operationFor(from, items, target, copy) {
  // From the library's timeline the photos are added: a copy, whatever the keys say.
  if (from.isLibrary) {
    return addPhotosOperation({ photoIds: items, to: { name: target.album, revision: target.pane?.album ? target.pane.album.revision : null }, slot: target.slot });
  }
  return dropOperation({
    from: { name: from.name, revision: from.album.revision },
    positions: items.map((id) => from.indexOf(id) + 1),
    to: { name: target.album, revision: target.pane?.album ? target.pane.album.revision : null },
    slot: target.slot,
    copy,
  });
}

/// A press on a tile: a click or tap chooses, a drag carries. `onTap`
/// handles a tap of a finger (the viewer, or selection while selecting).
export function pointerDown(event, pane, itemId, onTap) {
  if (event.button !== 0 || state.lift) return;
  if (event.pointerType === "touch" && pane.pinch) return;
  const tile = event.currentTarget;
  tile.setPointerCapture(event.pointerId);
  const start = { x: event.clientX, y: event.clientY };
  let began = false;
  let moved = false;
  let rested = false;
  // A mouse or pen drags at once. A finger must rest first, as in the
  // photo apps of phones: until then the browser may scroll (touch-action
  // pan-y), and once armed, touchMoveGuard keeps it from scrolling.
  let timer = null;
  if (event.pointerType === "touch") {
    timer = setTimeout(() => {
      timer = null;
      rested = true;
      state.touchArmed = true;
      tile.classList.add("armed");
      if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(10);
      // Resting on a photo selects it (taps then add others), as in the
      // photo apps of phones; moving on from here drags the selection.
      if (!pane.selected.has(itemId)) {
        pane.choose(itemId, { toggle: pane.selected.size > 0 });
        say(`${pane.selectionWords()} selected. Tap others to add them, or drag.`);
      }
    }, LONG_PRESS_MS);
  }
  const armed = () => event.pointerType !== "touch" || state.touchArmed;
  const move = (moveEvent) => {
    if (!began && Math.hypot(moveEvent.clientX - start.x, moveEvent.clientY - start.y) > 6) {
      moved = true;
      if (!armed()) { finish(); return; }  // a swipe: the browser scrolls
      began = true;
      beginDrag(pane, itemId, tile, moveEvent);
    }
    if (began) dragTo(moveEvent);
  };
  const finish = () => {
    clearTimeout(timer);
    state.touchArmed = false;
    tile.classList.remove("armed");
    tile.removeEventListener("pointermove", move);
    tile.removeEventListener("pointerup", end);
    tile.removeEventListener("pointercancel", end);
  };
  const end = async (endEvent) => {
    finish();
    if (!began) {
      // A scroll that took the pointer away neither chooses nor opens.
      if (endEvent.type === "pointercancel" || moved) return;
      if (event.pointerType === "touch") {
        // A finger: a rest selected already (and the click the browser may
        // send after it must not land on whatever is now under the finger);
        // a tap while selecting adds or takes away; a tap otherwise opens the photo.
        if (rested) { swallowNextClick(); return; }
        if (pane.selected.size) {
          pane.choose(itemId, { toggle: true });
          say(`${pane.selectionWords()} selected.`);
        } else {
          onTap?.(pane, itemId);
        }
        return;
      }
      pane.choose(itemId, { toggle: endEvent.ctrlKey || endEvent.metaKey, extend: endEvent.shiftKey });
      pane.viewport.focus({ preventScroll: true });
      return;
    }
    if (endEvent.type === "pointercancel") cancelDrag("Drag cancelled; nothing moved.");
    else await drop();
  };
  tile.addEventListener("pointermove", move);
  tile.addEventListener("pointerup", end);
  tile.addEventListener("pointercancel", end);
}

/// Ignores the click that follows a long press, wherever it lands.
function swallowNextClick() {
  const swallow = (event) => { event.stopPropagation(); event.preventDefault(); };
  document.addEventListener("click", swallow, { capture: true, once: true });
  setTimeout(() => document.removeEventListener("click", swallow, { capture: true }), 400);
}

/// Keeps a finger that lifted a photo (or two that pinch) from scrolling the page.
export function touchMoveGuard(pane) {
  pane.viewport.addEventListener("touchmove", (event) => {
    if (state.touchArmed || state.drag || pane.pinch) event.preventDefault();
  }, { passive: false });
}

function beginDrag(pane, itemId, tile, event) {
  if (!pane.selected.has(itemId)) pane.choose(itemId);
  const items = carried({ selected: pane.selected, ids: pane.ids, id: itemId });
  const origin = tile.getBoundingClientRect();
  state.drag = { pane, items, words: pane.wordsFor(items), origin, target: null, proposal: null, asked: 0, pointer: { x: event.clientX, y: event.clientY }, copy: event.altKey };
  pane.render();
  const image = tile.querySelector("img");
  ghost.style.backgroundImage = image ? `url("${image.src}")` : "";
  ghost.className = "";
  ghost.replaceChildren(element("span", { className: "badge", textContent: items.length }));
  ghost.hidden = false;
  document.body.classList.add("dragging");
  say(`Dragging ${state.drag.words}. Hold Alt to copy.`);
  requestAnimationFrame(autoScroll);
}

function dragTo(event) {
  const drag = state.drag;
  if (!drag) return;
  drag.pointer = { x: event.clientX, y: event.clientY };
  drag.copy = event.altKey;
  ghost.style.left = `${event.clientX - 48}px`;
  ghost.style.top = `${event.clientY - 48}px`;
  ghost.classList.toggle("copy", drag.copy);
  retarget();
}

/// Finds what is under the pointer and asks for the proposal when it changed.
function retarget() {
  const drag = state.drag;
  const target = targetAt(drag.pointer.x, drag.pointer.y);
  const same = drag.target && target && drag.target.album === target.album && drag.target.slot === target.slot && drag.copy === drag.target.copy;
  if (same) return;
  if (target) target.copy = drag.copy;
  drag.target = target;
  drag.proposal = null;
  showTarget(target, null);
  if (target) ask(drag);
  else say(`Dragging ${drag.words}: drop on an album or between photos.`);
}

function targetAt(x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const entry = under.closest("#album-list li[data-album]");
  if (entry) return { album: entry.dataset.album, slot: null, pane: null, entry };
  const section = under.closest(".pane");
  if (!section) return null;
  const pane = state.panes[Number(section.dataset.pane)];
  if (!pane.album) return null;
  return { album: pane.name, slot: pane.slotAt(x, y), pane };
}

async function ask(drag) {
  const target = drag.target;
  const asked = ++drag.asked;
  const operation = operationFor(drag.pane, drag.items, target, drag.copy);
  let proposal;
  try {
    proposal = await propose(operation);
  } catch (error) {
    proposal = { allowed: false, reason: { code: error.code, message: error.message } };
  }
  if (state.drag !== drag || asked !== drag.asked) return;  // the pointer has moved on
  drag.proposal = proposal;
  showTarget(target, proposal);
  const count = drag.words;
  const where = target.slot === null ? `into ${target.album}` : `to ${target.album} at position ${operation.at}`;
  if (proposal.allowed) say(`${drag.copy ? "Copy" : "Move"} ${count} ${where}.`);
  else say(`Cannot drop here: ${proposal.reason.message}`, true);
}

function showTarget(target, proposal) {
  for (const pane of state.panes) pane.unmark();
  document.querySelectorAll("#album-list li").forEach((entry) => entry.classList.remove("drop-target", "drop-forbidden"));
  ghost.classList.toggle("forbidden", Boolean(proposal && !proposal.allowed));
  if (!target) return;
  const forbidden = proposal && !proposal.allowed;
  if (target.entry) { target.entry.classList.add(forbidden ? "drop-forbidden" : "drop-target"); return; }
  target.pane.mark(target.slot, forbidden ? "forbidden" : target.copy ? "copy" : "");
}

/// Scrolls a pane while a drag hovers near its top or bottom edge.
function autoScroll() {
  const drag = state.drag;
  if (!drag) return;
  for (const pane of state.panes) {
    const box = pane.viewport.getBoundingClientRect();
    const { x, y } = drag.pointer;
    if (x < box.left || x > box.right) continue;
    const speed = y < box.top + EDGE ? -(box.top + EDGE - y) : y > box.bottom - EDGE ? y - (box.bottom - EDGE) : 0;
    if (speed !== 0 && y > box.top - EDGE && y < box.bottom + EDGE) {
      const before = pane.viewport.scrollTop;
      pane.viewport.scrollTop += Math.sign(speed) * Math.min(24, Math.abs(speed) / 2 + 2);
      if (pane.viewport.scrollTop !== before) retarget();
    }
  }
  requestAnimationFrame(autoScroll);
}

function endDrag() {
  const drag = state.drag;
  state.drag = null;
  document.body.classList.remove("dragging");
  showTarget(null, null);
  drag?.pane.render();
  return drag;
}

/// Sends the ghost back where the drag began: nothing moved.
function snapBack(drag) {
  ghost.classList.add("returning");
  ghost.style.left = `${drag.origin.left}px`;
  ghost.style.top = `${drag.origin.top}px`;
  setTimeout(() => { ghost.hidden = true; ghost.className = ""; }, 260);
}

function cancelDrag(message) {
  const drag = endDrag();
  if (drag) snapBack(drag);
  say(message);
}

async function drop() {
  const drag = endDrag();
  if (!drag.target) { snapBack(drag); say("Dropped outside the albums; nothing moved."); return; }
  const operation = operationFor(drag.pane, drag.items, drag.target, drag.copy);
  if (drag.proposal && !drag.proposal.allowed) {
    snapBack(drag);
    say(`Not dropped: ${drag.proposal.reason.message}`, true);
    return;
  }
  ghost.hidden = true;
  try {
    const answer = await perform(operation);
    drag.pane.added?.(drag.items, drag.target.album);
    drag.pane.selected.clear();
    drag.pane.render();
    const where = drag.target.slot === null ? `into ${drag.target.album}` : `to position ${operation.at} of ${drag.target.album}`;
    say(`${answer.verdict === "copy" ? "Copied" : "Moved"} ${drag.words} ${where}.`);
  } catch (error) {
    ghost.hidden = false;
    snapBack(drag);
    await refused(error, "Not dropped");
  }
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  ghost = document.getElementById("drag-ghost");
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.drag) cancelDrag("Drag cancelled; nothing moved.");
    if (event.key === "Alt" && state.drag && !state.drag.copy) { state.drag.copy = true; ghost.classList.add("copy"); retarget(); }
  });
  document.addEventListener("keyup", (event) => {
    if (event.key === "Alt" && state.drag && state.drag.copy) { state.drag.copy = false; ghost.classList.remove("copy"); retarget(); }
  });
}
