// The organizer page of `albums serve`: albums side by side, drag and drop
// through the server's proposals, live updates from its event stream.
// Plain modern JavaScript, no dependencies: the binary carries this file.

const state = {
  albums: [],            // as GET /api/albums answers
  panes: [null, null],   // { name, album, items } per pane
  selection: new Set(),  // "pane:position" keys, in the order chosen
  drag: null,            // the drag in progress
  keyboard: null,        // a keyboard lift in progress: { pane, positions, slot }
};

const statusLine = document.getElementById("status");
const ghost = document.getElementById("drag-ghost");

function say(text, forbidden = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("forbidden", forbidden);
}

async function api(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.error ? body.error.message : `${response.status} ${response.statusText}`);
    error.code = body.error && body.error.code;
    throw error;
  }
  return body;
}

// MARK: Loading

async function loadAlbums() {
  state.albums = (await api("/api/albums")).albums;
  renderAlbumList();
}

async function loadPane(index, name) {
  if (!name) { state.panes[index] = null; renderPane(index); return; }
  const items = [];
  let album = null;
  for (let offset = 0; ; offset += 2000) {
    const page = await api(`/api/albums/${encodeURIComponent(name)}/items?offset=${offset}&limit=2000`);
    album = page.album;
    items.push(...page.items);
    if (page.items.length < 2000) break;
  }
  state.panes[index] = { name, album, items };
  renderPane(index);
}

async function reloadAll() {
  await loadAlbums();
  await Promise.all(state.panes.map((pane, index) => pane && loadPane(index, pane.name).catch(() => loadPane(index, null))));
}

// MARK: Rendering

function renderAlbumList() {
  const list = document.getElementById("album-list");
  list.replaceChildren(...state.albums.map((album) => {
    const item = document.createElement("li");
    item.tabIndex = 0;
    item.dataset.album = album.name;
    item.setAttribute("aria-label", `${album.name}, ${album.count} items${album.locked ? ", locked" : ""}`);
    const name = document.createElement("span");
    name.textContent = (album.locked ? "🔒 " : "") + album.name;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = album.pending ? `${album.count} (${album.pending} loading)` : `${album.count}`;
    item.append(name, count);
    const open = (event) => loadPane(event.shiftKey ? 1 : 0, album.name).catch((error) => say(error.message, true));
    item.addEventListener("click", open);
    item.addEventListener("keydown", (event) => { if (event.key === "Enter") open(event); });
    return item;
  }));
}

function renderPane(index) {
  const section = document.getElementById(`pane-${index}`);
  const pane = state.panes[index];
  if (!pane) {
    section.replaceChildren(Object.assign(document.createElement("p"), { className: "hint", textContent: "No album shown." }));
    return;
  }
  const title = document.createElement("h2");
  title.textContent = `${pane.album.name} — ${pane.album.count} items, revision ${pane.album.revision}`;
  const grid = document.createElement("ol");
  grid.className = "grid";
  grid.dataset.pane = index;
  grid.setAttribute("aria-label", pane.album.name);
  for (const item of pane.items) grid.append(tile(index, item));
  section.replaceChildren(title, grid);
}

function tile(paneIndex, item) {
  const element = document.createElement("li");
  element.className = "tile";
  element.tabIndex = 0;
  element.dataset.pane = paneIndex;
  element.dataset.position = item.position;
  const key = `${paneIndex}:${item.position}`;
  if (state.selection.has(key)) element.classList.add("selected");
  const position = document.createElement("span");
  position.className = "position";
  position.textContent = item.position;
  if (item.placeholder_id !== null) {
    element.classList.add("placeholder");
    element.setAttribute("aria-label", `position ${item.position}, loading ${item.source}`);
    const label = document.createElement("span");
    label.textContent = `loading ${item.source.split("/").pop()}`;
    element.append(label, position);
  } else {
    element.setAttribute("aria-label", `position ${item.position}, ${item.file}, ${item.display_width}×${item.display_height}`);
    const image = document.createElement("img");
    image.loading = "lazy";
    image.alt = "";
    image.src = `/api/photos/${item.photo_id}/original`;
    element.append(image, position);
  }
  element.addEventListener("pointerdown", (event) => pointerDown(event, element));
  element.addEventListener("keydown", (event) => keyDown(event, element));
  return element;
}

// MARK: Selection

function select(element, event) {
  const key = `${element.dataset.pane}:${element.dataset.position}`;
  const samePane = [...state.selection].every((other) => other.startsWith(`${element.dataset.pane}:`));
  if ((event.ctrlKey || event.metaKey) && samePane) {
    if (state.selection.has(key)) state.selection.delete(key); else state.selection.add(key);
  } else if (event.shiftKey && samePane && state.selection.size > 0) {
    const last = Number([...state.selection].pop().split(":")[1]);
    const here = Number(element.dataset.position);
    for (let position = Math.min(last, here); position <= Math.max(last, here); position++) {
      state.selection.add(`${element.dataset.pane}:${position}`);
    }
  } else {
    state.selection = new Set([key]);
  }
  document.querySelectorAll(".tile").forEach((tile) => {
    tile.classList.toggle("selected", state.selection.has(`${tile.dataset.pane}:${tile.dataset.position}`));
  });
}

function draggedPositions(element) {
  const key = `${element.dataset.pane}:${element.dataset.position}`;
  if (!state.selection.has(key)) return [Number(element.dataset.position)];
  return [...state.selection].map((k) => Number(k.split(":")[1]));
}

// MARK: Drag and drop (pointer events: mouse, pen and touch alike)

function pointerDown(event, element) {
  if (event.button !== 0) return;
  element.setPointerCapture(event.pointerId);
  const start = { x: event.clientX, y: event.clientY };
  let began = false;
  const move = (moveEvent) => {
    if (!began && Math.hypot(moveEvent.clientX - start.x, moveEvent.clientY - start.y) > 5) {
      began = true;
      beginDrag(element, moveEvent);
    }
    if (began) dragTo(moveEvent);
  };
  const up = async (upEvent) => {
    element.removeEventListener("pointermove", move);
    element.removeEventListener("pointerup", up);
    element.removeEventListener("pointercancel", up);
    if (began) await drop(upEvent); else select(element, upEvent);
  };
  element.addEventListener("pointermove", move);
  element.addEventListener("pointerup", up);
  element.addEventListener("pointercancel", up);
}

function beginDrag(element, event) {
  const paneIndex = Number(element.dataset.pane);
  const positions = draggedPositions(element);
  if (!state.selection.has(`${paneIndex}:${element.dataset.position}`)) select(element, {});
  state.drag = { pane: paneIndex, album: state.panes[paneIndex].name, positions, target: null, proposal: null, asked: 0 };
  document.querySelectorAll(".tile.selected").forEach((tile) => tile.classList.add("lifted"));
  const image = element.querySelector("img");
  ghost.style.backgroundImage = image ? `url("${image.src}")` : "";
  ghost.replaceChildren(Object.assign(document.createElement("span"), { className: "badge", textContent: positions.length }));
  ghost.hidden = false;
  dragTo(event);
}

function dragTo(event) {
  const drag = state.drag;
  if (!drag) return;
  ghost.style.left = `${event.clientX - 48}px`;
  ghost.style.top = `${event.clientY - 48}px`;
  ghost.classList.toggle("copy", event.altKey);
  autoScroll(event);
  const target = targetAt(event.clientX, event.clientY, event.altKey);
  const same = drag.target && target && drag.target.album === target.album && drag.target.at === target.at && drag.target.copy === target.copy;
  if (same) return;
  drag.target = target;
  showTarget(target, null);
  if (target) propose(target);
}

/// Where a drop at (x, y) lands: a slot in a grid, or into an album of the list.
function targetAt(x, y, copy) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const listItem = under.closest("nav li[data-album]");
  if (listItem) return { album: listItem.dataset.album, at: null, copy, element: listItem };
  const grid = under.closest(".grid") || under.closest(".pane")?.querySelector(".grid");
  if (!grid) return null;
  const paneIndex = Number(grid.dataset.pane);
  const pane = state.panes[paneIndex];
  const tiles = [...grid.querySelectorAll(".tile")];
  // The slot before the first tile whose centre is past the pointer, in reading order.
  let slot = tiles.length + 1;
  for (const tile of tiles) {
    const box = tile.getBoundingClientRect();
    const rowMatches = y < box.bottom;
    if (rowMatches && (y < box.top || x < box.left + box.width / 2)) { slot = Number(tile.dataset.position); break; }
  }
  // `at` is where the first moved item ends up: the items before the slot that stay, plus one.
  const moving = state.drag.pane === paneIndex && !copy ? state.drag.positions.filter((p) => p < slot).length : 0;
  return { album: pane.name, at: slot - moving, slot, copy, grid };
}

function operationFor(target) {
  const drag = state.drag;
  const operation = {
    op: target.copy ? "copy" : "move",
    items: drag.positions.map((position) => `${drag.album}:${position}`),
    to: target.album,
  };
  if (target.at !== null) operation.at = target.at;
  return operation;
}

async function propose(target) {
  const drag = state.drag;
  const asked = ++drag.asked;
  try {
    const proposal = await api("/api/operations?dry_run=1", { method: "POST", body: JSON.stringify(operationFor(target)) });
    if (state.drag !== drag || asked !== drag.asked) return;
    drag.proposal = proposal;
    showTarget(target, proposal);
    const count = drag.positions.length;
    const where = target.at === null ? `into ${target.album}` : `to ${target.album} at ${target.at}`;
    if (proposal.allowed) say(`${target.copy ? "Copy" : "Move"} ${count} item${count === 1 ? "" : "s"} ${where}`);
    else say(`Not allowed: ${proposal.reason.message}`, true);
  } catch (error) {
    if (state.drag === drag) { drag.proposal = { allowed: false, reason: { message: error.message } }; say(error.message, true); }
  }
}

function showTarget(target, proposal) {
  document.querySelectorAll(".slot-marker").forEach((marker) => marker.remove());
  document.querySelectorAll("nav li").forEach((item) => item.classList.remove("drop-target", "drop-forbidden"));
  if (!target) return;
  const forbidden = proposal && !proposal.allowed;
  if (target.element) {
    target.element.classList.add(forbidden ? "drop-forbidden" : "drop-target");
    return;
  }
  const tiles = [...target.grid.querySelectorAll(".tile")];
  const before = tiles.find((tile) => Number(tile.dataset.position) === target.slot);
  const reference = before || tiles[tiles.length - 1];
  if (!reference) return;
  const box = reference.getBoundingClientRect();
  const pane = target.grid.closest(".pane");
  const paneBox = pane.getBoundingClientRect();
  const marker = document.createElement("div");
  marker.className = "slot-marker" + (forbidden ? " forbidden" : "");
  marker.style.left = `${(before ? box.left - 6 : box.right + 2) - paneBox.left + pane.scrollLeft}px`;
  marker.style.top = `${box.top - paneBox.top + pane.scrollTop}px`;
  marker.style.height = `${box.height}px`;
  pane.append(marker);
}

function autoScroll(event) {
  for (const pane of document.querySelectorAll(".pane")) {
    const box = pane.getBoundingClientRect();
    if (event.clientX < box.left || event.clientX > box.right) continue;
    if (event.clientY < box.top + 40) pane.scrollTop -= 12;
    else if (event.clientY > box.bottom - 40) pane.scrollTop += 12;
  }
}

async function drop() {
  const drag = state.drag;
  const operation = drag && drag.target ? operationFor(drag.target) : null;
  state.drag = null;
  ghost.hidden = true;
  showTarget(null, null);
  document.querySelectorAll(".lifted").forEach((tile) => tile.classList.remove("lifted"));
  if (!operation) { say("Nothing moved."); return; }
  try {
    // Asked again even when the proposal said no: the answer names the reason.
    const result = await api("/api/operations", { method: "POST", body: JSON.stringify(operation) });
    state.selection.clear();
    const count = drag.positions.length;
    say(`${result.verdict === "copy" ? "Copied" : "Moved"} ${count} item${count === 1 ? "" : "s"}.`);
  } catch (error) {
    say(`Not done: ${error.message}`, true);  // the items stay where they were
  }
  await reloadAll();
}

// MARK: Keyboard: space lifts, arrows choose the slot, enter drops, escape cancels

function keyDown(event, element) {
  const paneIndex = Number(element.dataset.pane);
  const pane = state.panes[paneIndex];
  const lift = state.keyboard;
  if (!lift) {
    if (event.key === " ") {
      event.preventDefault();
      if (!state.selection.has(`${paneIndex}:${element.dataset.position}`)) select(element, {});
      const positions = draggedPositions(element);
      state.keyboard = { pane: paneIndex, positions, slot: Math.min(...positions) };
      say(`Lifted ${positions.length} item${positions.length === 1 ? "" : "s"} at position ${Math.min(...positions)}. Arrows choose where, Enter drops, Escape cancels.`);
    } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      const next = element.parentElement.querySelector(`.tile[data-position="${Number(element.dataset.position) + (event.key === "ArrowRight" ? 1 : -1)}"]`);
      if (next) next.focus();
    }
    return;
  }
  event.preventDefault();
  const count = pane.items.length;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") lift.slot = Math.min(count - lift.positions.length + 1, lift.slot + 1);
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") lift.slot = Math.max(1, lift.slot - 1);
  else if (event.key === "Escape") { state.keyboard = null; say("Cancelled; nothing moved."); return; }
  else if (event.key === "Enter") { keyboardDrop(lift, pane); return; }
  say(`Will land at position ${lift.slot} of ${pane.name}.`);
}

async function keyboardDrop(lift, pane) {
  state.keyboard = null;
  const operation = { op: "move", items: lift.positions.map((position) => `${pane.name}:${position}`), to: pane.name, at: lift.slot };
  try {
    await api("/api/operations", { method: "POST", body: JSON.stringify(operation) });
    state.selection.clear();
    say(`Dropped at position ${lift.slot} of ${pane.name}.`);
  } catch (error) {
    say(`Not done: ${error.message}`, true);
  }
  await reloadAll();
  document.querySelector(`.grid[data-pane="${lift.pane}"] .tile[data-position="${lift.slot}"]`)?.focus();
}

// MARK: Zoom

const zoom = document.getElementById("zoom");
zoom.addEventListener("input", () => document.documentElement.style.setProperty("--tile", `${zoom.value}px`));
document.addEventListener("wheel", (event) => {
  if (!event.ctrlKey) return;
  event.preventDefault();
  zoom.value = Math.max(64, Math.min(320, Number(zoom.value) - Math.sign(event.deltaY) * 16));
  zoom.dispatchEvent(new Event("input"));
}, { passive: false });

// MARK: Live updates

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("change", (message) => {
    const change = JSON.parse(message.data);
    const touched = new Set(change.operations.flat().map((set) => set.album));
    loadAlbums();
    state.panes.forEach((pane, index) => {
      if (pane && (touched.has(pane.name) || change.follows_a_gap)) loadPane(index, pane.name).catch(() => loadPane(index, null));
    });
  });
}

await loadAlbums();
if (state.albums[0]) await loadPane(0, state.albums[0].name);
if (state.albums[1]) await loadPane(1, state.albums[1].name);
else renderPane(1);
listen();
