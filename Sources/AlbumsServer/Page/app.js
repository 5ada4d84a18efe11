// The organizer page of `albums serve`: two albums side by side as grids,
// drag and drop through the server's proposals, files from the desktop
// through placeholders, live change sets from every writer.
// Plain modern JavaScript, no dependencies: the binary carries this file.

const GAP = 8;
const PAGE = 2000;        // items per request when an album opens
const OVERSCAN = 2;       // rows rendered beyond the visible ones
const EDGE = 48;          // pixels from a pane's edge where a drag scrolls it

const state = {
  albums: [],             // as GET /api/albums answers
  panes: [],              // Pane objects, left and right
  tile: 148,              // thumbnail size in CSS pixels
  drag: null,             // a pointer drag in progress
  lift: null,             // a keyboard lift in progress
  touchArmed: false,      // a finger rested on a photo long enough to drag it
};

const statusLine = document.getElementById("status");
const ghost = document.getElementById("drag-ghost");

/// Says something on the status line, which screen readers announce.
function say(text, forbidden = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("forbidden", forbidden);
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

async function api(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.error ? body.error.message : `${response.status} ${response.statusText}`);
    error.code = body.error && body.error.code;
    error.status = response.status;
    throw error;
  }
  return body;
}

const itemsPath = (name, offset, limit) => `/api/albums/${encodeURIComponent(name)}/items?offset=${offset}&limit=${limit}`;

/// The thumbnail size to ask for: the tile's size in device pixels, on a
/// short ladder so that the server's cache is shared between zoom levels.
function thumbnailSize(tile) {
  const wanted = tile * (window.devicePixelRatio || 1);
  return [128, 256, 384, 512, 768].find((size) => size >= wanted) ?? 1024;
}

// MARK: A pane: one album as a virtualized grid

class Pane {
  constructor(index) {
    this.index = index;
    this.section = document.getElementById(`pane-${index}`);
    this.viewport = this.section.querySelector(".viewport");
    this.canvas = this.section.querySelector(".canvas");
    this.choice = this.section.querySelector(".album-choice");
    this.info = this.section.querySelector(".pane-info");
    this.name = null;
    this.album = null;
    this.items = [];
    this.selected = new Set();   // item ids, in the order chosen
    this.active = null;          // the item id keyboard focus is on
    this.anchor = null;          // where a shift-selection started
    this.elements = new Map();   // item id → rendered tile
    this.uploading = 0;          // uploads whose local placeholders stand in `items`
    this.viewport.id = `grid-${index}`;
    this.viewport.addEventListener("scroll", () => this.render());
    this.viewport.addEventListener("keydown", (event) => keyDown(event, this));
    this.viewport.addEventListener("focus", () => { if (this.active === null && this.items[0]) this.setActive(this.items[0].item_id); });
    this.choice.addEventListener("change", () => this.open(this.choice.value).catch((error) => say(error.message, true)));
    new ResizeObserver(() => this.render()).observe(this.viewport);
    acceptFiles(this);
    pinchToZoom(this);
    touchMoveGuard(this);
  }

  /// As many columns of the chosen size as fit; the tiles then stretch a little to fill the row.
  get columns() { return Math.max(1, Math.floor((this.viewport.clientWidth - GAP) / (state.tile + GAP))); }
  get size() { return Math.max(state.tile, Math.floor((this.viewport.clientWidth - GAP) / this.columns) - GAP); }
  get cell() { return this.size + GAP; }

  /// Shows the album `name`, reading its items a page at a time.
  async open(name) {
    this.name = name;
    this.selected.clear();
    this.active = null;
    if (!name) { this.album = null; this.items = []; this.render(); return; }
    const items = [];
    let album = null;
    for (let offset = 0; ; offset += PAGE) {
      const page = await api(itemsPath(name, offset, PAGE));
      album = page.album;
      items.push(...page.items);
      if (page.items.length < PAGE) break;
    }
    if (this.name !== name) return;  // another album was chosen meanwhile
    this.album = album;
    this.items = items;
    this.clearTiles();
    this.viewport.scrollTop = 0;
    this.render();
    renderAlbumList();
  }

  async reload() {
    if (!this.name) return;
    const { scrollTop } = this.viewport;
    const selected = this.selected;
    const active = this.active;
    try {
      await this.open(this.name);
    } catch (error) {
      if (error.code === "album_not_found") { await this.open(null); say(`${this.name} is gone.`); return; }
      throw error;
    }
    const present = new Set(this.items.map((item) => item.item_id));
    this.selected = new Set([...selected].filter((id) => present.has(id)));
    this.active = present.has(active) ? active : null;
    this.viewport.scrollTop = scrollTop;
    this.render();
  }

  indexOf(itemId) { return this.items.findIndex((item) => item.item_id === itemId); }

  /// Where the tile at `index` stands, inside the canvas.
  frame(index) {
    const columns = this.columns;
    const cell = this.cell;
    return { left: GAP + (index % columns) * cell, top: GAP + Math.floor(index / columns) * cell, size: cell - GAP };
  }

  clearTiles() {
    this.canvas.replaceChildren();
    this.elements.clear();
  }

  /// Renders the rows in view (and a few beyond), reusing tiles by item id.
  render() {
    const count = this.items.length;
    this.info.textContent = this.album ? `${plural(this.album.count, "item")}${this.album.locked ? " · locked" : ""} · revision ${this.album.revision}` : "";
    this.viewport.setAttribute("aria-label", this.album ? `${this.album.name}, ${plural(count, "item")}` : "No album");
    const rows = Math.ceil(count / this.columns);
    this.canvas.style.height = `${rows * this.cell + GAP}px`;
    if (!this.album) {
      this.clearTiles();
      this.canvas.append(Object.assign(document.createElement("p"), { className: "empty", textContent: "Choose an album above." }));
      return;
    }
    if (count === 0) {
      this.clearTiles();
      this.canvas.append(Object.assign(document.createElement("p"), { className: "empty", textContent: "No photos yet: drag some here." }));
      return;
    }
    this.canvas.querySelector(".empty")?.remove();
    const firstRow = Math.max(0, Math.floor(this.viewport.scrollTop / this.cell) - OVERSCAN);
    const lastRow = Math.ceil((this.viewport.scrollTop + this.viewport.clientHeight) / this.cell) + OVERSCAN;
    const first = firstRow * this.columns;
    const last = Math.min(count, lastRow * this.columns);
    // Index → item for what is drawn; the active tile stays drawn for aria-activedescendant.
    const wanted = new Map();
    for (let index = first; index < last; index++) wanted.set(this.items[index].item_id, index);
    if (this.active !== null && !wanted.has(this.active)) {
      const index = this.indexOf(this.active);
      if (index >= 0) wanted.set(this.active, index);
    }
    for (const [id, element] of this.elements) {
      if (!wanted.has(id)) { element.remove(); this.elements.delete(id); }
    }
    const lifted = new Set(this.liftedIds());
    for (const [id, index] of wanted) this.place(this.items[index], index, lifted.has(id));
    if (this.active !== null && this.elements.has(this.active)) {
      this.viewport.setAttribute("aria-activedescendant", this.elements.get(this.active).id);
    } else {
      this.viewport.removeAttribute("aria-activedescendant");
    }
  }

  liftedIds() {
    if (state.drag && state.drag.pane === this) return state.drag.items;
    if (state.lift && state.lift.pane === this) return state.lift.items;
    return [];
  }

  place(item, index, lifted) {
    let element = this.elements.get(item.item_id);
    const kind = item.placeholder_id !== null ? "placeholder" : `photo-${item.photo_id}`;
    if (!element || element.dataset.kind !== kind) {
      element?.remove();
      element = makeTile(this, item);
      this.elements.set(item.item_id, element);
      this.canvas.append(element);
    }
    const frame = this.frame(index);
    element.style.left = `${frame.left}px`;
    element.style.top = `${frame.top}px`;
    element.style.width = element.style.height = `${frame.size}px`;
    element.querySelector(".position").textContent = index + 1;
    element.setAttribute("aria-posinset", index + 1);
    element.setAttribute("aria-setsize", this.items.length);
    element.setAttribute("aria-selected", this.selected.has(item.item_id));
    element.classList.toggle("selected", this.selected.has(item.item_id));
    element.classList.toggle("active", this.active === item.item_id && document.activeElement === this.viewport);
    element.classList.toggle("lifted", lifted);
    const image = element.querySelector("img");
    if (image) {
      const source = `/api/photos/${item.photo_id}/thumbnail?size=${thumbnailSize(frame.size)}`;
      if (image.getAttribute("src") !== source) image.src = source;
    }
  }

  setActive(itemId, { scroll = true } = {}) {
    this.active = itemId;
    if (scroll) this.reveal(this.indexOf(itemId));
    this.render();
  }

  /// Scrolls just enough for the tile at `index` to be seen whole.
  reveal(index) {
    if (index < 0) return;
    const { top } = this.frame(index);
    const view = this.viewport;
    if (top - GAP < view.scrollTop) view.scrollTop = top - GAP;
    else if (top + this.cell > view.scrollTop + view.clientHeight) view.scrollTop = top + this.cell - view.clientHeight;
  }

  /// The insertion slot (0 … count) nearest the point (x, y) on screen.
  slotAt(x, y) {
    const box = this.viewport.getBoundingClientRect();
    const localX = x - box.left - GAP / 2;
    const localY = y - box.top + this.viewport.scrollTop - GAP / 2;
    const row = Math.max(0, Math.floor(localY / this.cell));
    const column = Math.min(this.columns, Math.max(0, Math.round(localX / this.cell)));
    return Math.min(this.items.length, row * this.columns + column);
  }

  /// The item index under (x, y), for zooming around it.
  indexAt(x, y) {
    const box = this.viewport.getBoundingClientRect();
    const row = Math.floor((y - box.top + this.viewport.scrollTop) / this.cell);
    const column = Math.min(this.columns - 1, Math.max(0, Math.floor((x - box.left) / this.cell)));
    return Math.max(0, Math.min(this.items.length - 1, row * this.columns + column));
  }

  /// Draws the slot marker before the item at `slot` (or after the last).
  mark(slot, kind) {
    this.unmark();
    if (slot === null || !this.album) return;
    const marker = document.createElement("div");
    marker.className = `slot-marker ${kind}`;
    const count = this.items.length;
    let left;
    let top;
    if (slot < count || count === 0) {
      ({ left, top } = this.frame(slot));  // before the item now at the slot
    } else {
      const frame = this.frame(count - 1);  // after the last item
      left = frame.left + frame.size + GAP;
      top = frame.top;
    }
    marker.style.left = `${left - GAP / 2 - 2}px`;
    marker.style.top = `${top}px`;
    marker.style.height = `${this.size}px`;
    this.canvas.append(marker);
  }

  unmark() { this.canvas.querySelectorAll(".slot-marker").forEach((marker) => marker.remove()); }

  /// Applies a committed change set (PhotoKit's index spaces: removals in
  /// the old list, insertions and updates in the new, moves from old to
  /// new). Answers false when it cannot be applied and the album must be read again.
  async apply(change) {
    if (!this.album) return true;
    if (this.uploading > 0) return true;  // read again once the upload is answered
    if (change.album_id !== this.album.id) return true;   // another album's (ids survive renames)
    if (change.album_events.includes("deleted")) { await this.open(null); say(`${change.album} was deleted.`); return true; }
    if (change.revision <= this.album.revision) return true;   // seen already (our own write's answer)
    if (change.revision !== this.album.revision + 1) return false;
    const old = this.items;
    const removed = new Set(change.removed.map((p) => p - 1));
    const movedFrom = new Set(change.moved.map((m) => m.from - 1));
    const result = new Array(old.length - removed.size + change.inserted.length).fill(null);
    for (const move of change.moved) {
      if (result[move.to - 1] !== null || !old[move.from - 1]) return false;
      result[move.to - 1] = old[move.from - 1];
    }
    const fetched = await this.fetchAt([...change.inserted, ...change.updated]);
    if (!fetched) return false;
    for (const position of change.inserted) {
      if (result[position - 1] !== null) return false;
      result[position - 1] = fetched.get(position);
    }
    let next = 0;
    for (let index = 0; index < result.length; index++) {
      if (result[index] !== null) continue;
      while (next < old.length && (removed.has(next) || movedFrom.has(next))) next++;
      if (next >= old.length) return false;
      result[index] = old[next++];
    }
    for (const position of change.updated) result[position - 1] = fetched.get(position);
    if (result.some((item) => !item)) return false;
    result.forEach((item, index) => { item.position = index + 1; });
    for (const id of change.removed_items) { this.selected.delete(id); if (this.active === id) this.active = null; }
    this.items = result;
    this.album = { ...this.album, name: change.album, revision: change.revision, count: result.length };
    this.name = change.album;
    this.render();
    return true;
  }

  /// Reads the items now at the given 1-based positions, in as few requests as runs of them.
  async fetchAt(positions) {
    const found = new Map();
    const sorted = [...new Set(positions)].sort((a, b) => a - b);
    let start = 0;
    while (start < sorted.length) {
      let end = start;
      while (end + 1 < sorted.length && sorted[end + 1] - sorted[start] < PAGE) end++;
      const offset = sorted[start] - 1;
      const page = await api(itemsPath(this.name, offset, sorted[end] - offset)).catch(() => null);
      if (!page) return null;
      page.items.forEach((item) => found.set(item.position, item));
      start = end + 1;
    }
    return found;
  }
}

function makeTile(pane, item) {
  const element = document.createElement("div");
  element.className = "tile";
  element.id = `tile-${pane.index}-${item.item_id}`;
  element.setAttribute("role", "option");
  element.dataset.itemId = item.item_id;
  const position = Object.assign(document.createElement("span"), { className: "position" });
  if (item.placeholder_id !== null) {
    element.dataset.kind = "placeholder";
    element.classList.add("placeholder");
    const name = (item.source || "").split("/").pop();
    element.setAttribute("aria-label", `loading ${name}`);
    element.append(Object.assign(document.createElement("span"), { className: "loading", textContent: `loading ${name}` }), position);
  } else {
    element.dataset.kind = `photo-${item.photo_id}`;
    const captured = item.captured_at ? `, taken ${item.captured_at.slice(0, 10)}` : "";
    element.setAttribute("aria-label", `${item.file}, ${item.display_width}×${item.display_height}${captured}`);
    element.title = item.file;
    const image = document.createElement("img");
    image.alt = "";
    image.decoding = "async";
    image.draggable = false;
    image.addEventListener("error", () => element.classList.add("failed"));
    element.append(image, position);
  }
  element.addEventListener("pointerdown", (event) => pointerDown(event, pane, item.item_id));
  element.addEventListener("dblclick", () => showDetails(pane, item.item_id));
  return element;
}

// MARK: The album list

async function loadAlbums() {
  state.albums = (await api("/api/albums")).albums;
  renderAlbumList();
  refreshHistory().catch(() => {});
}

function renderAlbumList() {
  const list = document.getElementById("album-list");
  const shown = new Set(state.panes.map((pane) => pane.name));
  list.replaceChildren(...state.albums.map((album) => {
    const entry = document.createElement("li");
    entry.tabIndex = 0;
    entry.dataset.album = album.name;
    entry.classList.toggle("shown", shown.has(album.name));
    const loading = album.pending ? `, ${album.pending} loading` : "";
    entry.setAttribute("aria-label", `${album.name}, ${plural(album.count, "item")}${loading}${album.locked ? ", locked" : ""}`);
    const name = Object.assign(document.createElement("span"), { textContent: (album.locked ? "🔒 " : "") + album.name });
    const count = Object.assign(document.createElement("span"), { className: "count", textContent: album.pending ? `${album.count} (${album.pending}…)` : `${album.count}` });
    entry.append(name, count);
    const open = (event) => state.panes[event.shiftKey ? 1 : 0].open(album.name).catch((error) => say(error.message, true));
    entry.addEventListener("click", open);
    entry.addEventListener("keydown", (event) => { if (event.key === "Enter") open(event); });
    acceptFilesInto(entry, album.name);
    return entry;
  }));
  for (const pane of state.panes) {
    pane.choice.replaceChildren(
      Object.assign(document.createElement("option"), { value: "", textContent: "No album" }),
      ...state.albums.map((album) => Object.assign(document.createElement("option"), { value: album.name, textContent: album.name })));
    pane.choice.value = pane.name ?? "";
    if (pane.album) {
      const fresh = state.albums.find((album) => album.name === pane.name);
      if (fresh) { pane.album.count = fresh.count; pane.album.locked = fresh.locked; pane.album.pending = fresh.pending; }
      pane.render();
    }
  }
}

// MARK: Selection

function choose(pane, itemId, event) {
  for (const other of state.panes) if (other !== pane) { other.selected.clear(); other.render(); }
  const index = pane.indexOf(itemId);
  if (event.ctrlKey || event.metaKey) {
    if (pane.selected.has(itemId)) pane.selected.delete(itemId); else pane.selected.add(itemId);
    pane.anchor = itemId;
  } else if (event.shiftKey && pane.anchor !== null && pane.indexOf(pane.anchor) >= 0) {
    const from = pane.indexOf(pane.anchor);
    const step = index >= from ? 1 : -1;
    for (let i = from; i !== index + step; i += step) pane.selected.add(pane.items[i].item_id);
  } else {
    pane.selected = new Set([itemId]);
    pane.anchor = itemId;
  }
  pane.active = itemId;
  pane.render();
}

/// The items a drag or a lift carries, in album order: the selection if
/// `itemId` is in it, else `itemId` alone.
function carried(pane, itemId) {
  if (!pane.selected.has(itemId)) return [itemId];
  return pane.items.filter((item) => pane.selected.has(item.item_id)).map((item) => item.item_id);
}

// MARK: Operations

/// The operation that lands `items` (ids, in `from`) at `slot` of `to`
/// (null: into the album named `album`, at its end).
function operationFor(from, items, target, copy) {
  const positions = items.map((id) => from.indexOf(id) + 1);
  const operation = { op: copy ? "copy" : "move", items: positions.map((position) => `${from.name}:${position}`), to: target.album };
  const expect = { [from.name]: from.album.revision };
  if (target.pane && target.pane.album) expect[target.pane.name] = target.pane.album.revision;
  operation.expect_revision = expect;
  if (target.slot !== null) {
    // `at` counts the album without the items moved within it.
    const staying = target.pane === from && !copy ? positions.filter((position) => position <= target.slot).length : 0;
    operation.at = target.slot - staying + 1;
  }
  return operation;
}

/// Applies the change sets a write answered with, at once (the event
/// stream brings the same ones later; they are then seen already).
async function applyAnswer(changes) {
  for (const change of changes) {
    for (const pane of state.panes) {
      if (!(await pane.apply(change))) await pane.reload();
    }
  }
  loadAlbums().catch(() => {});
}

async function perform(operation) {
  const answer = await api("/api/operations", { method: "POST", body: JSON.stringify(operation) });
  await applyAnswer(answer.changes);
  return answer;
}

/// A refusal said plainly; a stale view is read again.
async function refused(error, what) {
  say(`${what}: ${error.message}`, true);
  if (error.status === 409) await Promise.all(state.panes.map((pane) => pane.reload()));
}

// MARK: Pointer drag and drop (mouse, pen and touch alike)

/// How long a finger rests on a photo before it lifts: a quicker swipe scrolls.
const LONG_PRESS_MS = 350;

function pointerDown(event, pane, itemId) {
  if (event.button !== 0 || state.lift) return;
  if (event.pointerType === "touch" && pane.pinch) return;
  const element = event.currentTarget;
  element.setPointerCapture(event.pointerId);
  const start = { x: event.clientX, y: event.clientY };
  let began = false;
  let moved = false;
  // A mouse or pen drags at once. A finger must rest first, as in the
  // photo apps of phones: until then the browser may scroll (touch-action
  // pan-y), and once armed, touchMoveGuard keeps it from scrolling.
  let timer = null;
  if (event.pointerType === "touch") {
    timer = setTimeout(() => {
      timer = null;
      state.touchArmed = true;
      element.classList.add("armed");
      navigator.vibrate?.(10);
    }, LONG_PRESS_MS);
  }
  const armed = () => event.pointerType !== "touch" || state.touchArmed;
  const move = (moveEvent) => {
    if (!began && Math.hypot(moveEvent.clientX - start.x, moveEvent.clientY - start.y) > 6) {
      moved = true;
      if (!armed()) { finish(); return; }  // a swipe: the browser scrolls
      began = true;
      beginDrag(pane, itemId, element, moveEvent);
    }
    if (began) dragTo(moveEvent);
  };
  const finish = () => {
    clearTimeout(timer);
    state.touchArmed = false;
    element.classList.remove("armed");
    element.removeEventListener("pointermove", move);
    element.removeEventListener("pointerup", end);
    element.removeEventListener("pointercancel", end);
  };
  const end = async (endEvent) => {
    finish();
    if (!began) {
      // A tap or a click chooses; a scroll that took the pointer away does not.
      if (endEvent.type === "pointercancel" || moved) return;
      choose(pane, itemId, endEvent);
      pane.viewport.focus({ preventScroll: true });
      return;
    }
    if (endEvent.type === "pointercancel") cancelDrag("Drag cancelled; nothing moved.");
    else await drop(endEvent);
  };
  element.addEventListener("pointermove", move);
  element.addEventListener("pointerup", end);
  element.addEventListener("pointercancel", end);
}

/// Keeps a finger that lifted a photo (or two that pinch) from scrolling the page.
function touchMoveGuard(pane) {
  pane.viewport.addEventListener("touchmove", (event) => {
    if (state.touchArmed || state.drag || pane.pinch) event.preventDefault();
  }, { passive: false });
}

function beginDrag(pane, itemId, element, event) {
  if (!pane.selected.has(itemId)) choose(pane, itemId, {});
  const items = carried(pane, itemId);
  const origin = element.getBoundingClientRect();
  state.drag = { pane, items, origin, target: null, proposal: null, asked: 0, pointer: { x: event.clientX, y: event.clientY }, copy: event.altKey };
  pane.render();
  const image = element.querySelector("img");
  ghost.style.backgroundImage = image ? `url("${image.src}")` : "";
  ghost.className = "";
  ghost.replaceChildren(Object.assign(document.createElement("span"), { className: "badge", textContent: items.length }));
  ghost.hidden = false;
  say(`Dragging ${plural(items.length, "photo")}. Hold Alt to copy.`);
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
  if (target) propose(drag);
  else say(`Dragging ${plural(drag.items.length, "photo")}: drop on an album or between photos.`);
}

function targetAt(x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const entry = under.closest("nav li[data-album]");
  if (entry) return { album: entry.dataset.album, slot: null, pane: null, entry };
  const section = under.closest(".pane");
  if (!section) return null;
  const pane = state.panes[Number(section.dataset.pane)];
  if (!pane.album) return null;
  return { album: pane.name, slot: pane.slotAt(x, y), pane };
}

async function propose(drag) {
  const target = drag.target;
  const asked = ++drag.asked;
  const operation = operationFor(drag.pane, drag.items, target, drag.copy);
  let proposal;
  try {
    proposal = await api("/api/operations?dry_run=1", { method: "POST", body: JSON.stringify(operation) });
  } catch (error) {
    proposal = { allowed: false, reason: { code: error.code, message: error.message } };
  }
  if (state.drag !== drag || asked !== drag.asked) return;  // the pointer has moved on
  drag.proposal = proposal;
  showTarget(target, proposal);
  const count = plural(drag.items.length, "photo");
  const where = target.slot === null ? `into ${target.album}` : `to ${target.album} at position ${operation.at}`;
  if (proposal.allowed) say(`${drag.copy ? "Copy" : "Move"} ${count} ${where}.`);
  else say(`Cannot drop here: ${proposal.reason.message}`, true);
}

function showTarget(target, proposal) {
  for (const pane of state.panes) pane.unmark();
  document.querySelectorAll("nav li").forEach((entry) => entry.classList.remove("drop-target", "drop-forbidden"));
  ghost.classList.toggle("forbidden", Boolean(proposal && !proposal.allowed));
  if (!target) return;
  const forbidden = proposal && !proposal.allowed;
  if (target.entry) { target.entry.classList.add(forbidden ? "drop-forbidden" : "drop-target"); return; }
  target.pane.mark(target.slot, forbidden ? "forbidden" : target.copy ? "copy" : "");
}

/// Scrolls a pane while a drag or a file hovers near its top or bottom edge.
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
    drag.pane.selected.clear();
    const where = drag.target.slot === null ? `into ${drag.target.album}` : `to position ${operation.at} of ${drag.target.album}`;
    say(`${answer.verdict === "copy" ? "Copied" : "Moved"} ${plural(drag.items.length, "photo")} ${where}.`);
  } catch (error) {
    ghost.hidden = false;
    snapBack(drag);
    await refused(error, "Not dropped");
  }
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && state.drag) cancelDrag("Drag cancelled; nothing moved.");
  if (event.key === "Alt" && state.drag && !state.drag.copy) { state.drag.copy = true; ghost.classList.add("copy"); retarget(); }
});
document.addEventListener("keyup", (event) => {
  if (event.key === "Alt" && state.drag && state.drag.copy) { state.drag.copy = false; ghost.classList.remove("copy"); retarget(); }
});

// MARK: The keyboard: everything a drag does

function keyDown(event, pane) {
  if (!pane.album) return;
  if (state.lift) { liftKey(event); return; }
  const index = Math.max(0, pane.indexOf(pane.active));
  const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: pane.columns, ArrowUp: -pane.columns, Home: -Infinity, End: Infinity }[event.key];
  if (step !== undefined && pane.items.length) {
    event.preventDefault();
    const next = Math.max(0, Math.min(pane.items.length - 1, index + step));
    const id = pane.items[next].item_id;
    if (event.shiftKey) choose(pane, id, { shiftKey: true }); else choose(pane, id, {});
    pane.setActive(id);
    const item = pane.items[next];
    say(`${next + 1} of ${pane.items.length}: ${item.file ?? "loading"}${pane.selected.size > 1 ? `, ${pane.selected.size} selected` : ""}`);
  } else if (event.key === " " && (event.ctrlKey || event.metaKey) && pane.active !== null) {
    event.preventDefault();
    choose(pane, pane.active, { ctrlKey: true });
    say(`${pane.selected.size} selected.`);
  } else if (event.key === " " && pane.active !== null) {
    event.preventDefault();
    lift(pane);
  } else if (event.key.toLowerCase() === "i" && pane.active !== null) {
    showDetails(pane, pane.active);
  } else if (event.key === "+" || event.key === "=") {
    zoomTo(state.tile + 24, pane);
  } else if (event.key === "-") {
    zoomTo(state.tile - 24, pane);
  }
}

function lift(pane) {
  const items = carried(pane, pane.active);
  const first = pane.indexOf(items[0]);
  state.lift = { pane, items, target: pane, slot: first, copy: false };
  pane.render();
  showLift(`Lifted ${plural(items.length, "photo")} from position ${first + 1}. Arrows choose where, Tab carries them to the other album, C copies, Enter drops, Escape puts them back.`);
}

/// The slot as a position in the album without the lifted items (when moving within it).
function liftPosition(lift) {
  const staying = lift.target === lift.pane && !lift.copy ? lift.items.filter((id) => lift.pane.indexOf(id) < lift.slot).length : 0;
  return lift.slot - staying + 1;
}

function showLift(message) {
  const lift = state.lift;
  for (const pane of state.panes) pane.unmark();
  lift.target.mark(lift.slot, lift.copy ? "copy" : "");
  lift.target.reveal(Math.min(lift.slot, lift.target.items.length - 1));
  say(message ?? `${lift.copy ? "Copy" : "Move"} to position ${liftPosition(lift)} of ${lift.target.name}.`);
}

function liftKey(event) {
  const lift = state.lift;
  const target = lift.target;
  const count = target.items.length;
  const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: target.columns, ArrowUp: -target.columns, Home: -Infinity, End: Infinity }[event.key];
  event.preventDefault();
  if (step !== undefined) {
    lift.slot = Math.max(0, Math.min(count, lift.slot + step));
    showLift();
  } else if (event.key === "Tab") {
    const other = state.panes.find((pane) => pane !== target && pane.album);
    if (!other) { say("Open another album on the other side first."); return; }
    lift.target = other;
    lift.slot = Math.min(lift.slot, other.items.length);
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
    const proposal = await api("/api/operations?dry_run=1", { method: "POST", body: JSON.stringify(operation) });
    if (!proposal.allowed) { lift.pane.render(); say(`Not dropped: ${proposal.reason.message}`, true); return; }
    await perform(operation);
    lift.pane.selected.clear();
    const landed = lift.target.items[operation.at - 1];
    if (landed) {
      lift.target.selected = new Set([landed.item_id]);
      lift.target.setActive(landed.item_id);
    }
    lift.target.viewport.focus({ preventScroll: true });
    say(`${lift.copy ? "Copied" : "Moved"} ${plural(lift.items.length, "photo")} to position ${operation.at} of ${lift.target.name}.`);
  } catch (error) {
    lift.pane.render();
    await refused(error, "Not dropped");
  }
}

// MARK: Zoom: slider, Ctrl+wheel, pinch; the photo under the pointer stays put

const zoom = document.getElementById("zoom");

/// Sets the tile size, keeping the item at (x, y) in `around` under (x, y).
function zoomTo(size, around, x, y) {
  const tile = Math.round(Math.max(Number(zoom.min), Math.min(Number(zoom.max), size)));
  if (tile === state.tile) return;
  const anchors = state.panes.filter((pane) => pane.items.length).map((pane) => {
    const box = pane.viewport.getBoundingClientRect();
    const px = pane === around && x !== undefined ? x : box.left + box.width / 2;
    const py = pane === around && y !== undefined ? y : box.top + box.height / 2;
    const index = pane.indexAt(px, py);
    const frame = pane.frame(index);
    // Where the pointer is inside that tile, as a fraction, so it stays on the same spot of the photo.
    const fraction = (py - box.top + pane.viewport.scrollTop - frame.top) / pane.cell;
    return { pane, index, offset: py - box.top, fraction };
  });
  state.tile = tile;
  zoom.value = tile;
  document.documentElement.style.setProperty("--tile", `${tile}px`);
  for (const { pane, index, offset, fraction } of anchors) {
    const frame = pane.frame(index);
    pane.viewport.scrollTop = frame.top + fraction * pane.cell - offset;
    pane.render();
  }
  for (const pane of state.panes) if (!pane.items.length) pane.render();
  say(`Thumbnails ${tile} pixels.`);
}

zoom.addEventListener("input", () => zoomTo(Number(zoom.value)));
document.addEventListener("wheel", (event) => {
  if (!event.ctrlKey) return;  // trackpad pinches arrive as Ctrl+wheel too
  event.preventDefault();
  const section = event.target.closest?.(".pane");
  const pane = section ? state.panes[Number(section.dataset.pane)] : null;
  zoomTo(state.tile * Math.exp(-event.deltaY / 300), pane, event.clientX, event.clientY);
}, { passive: false });

/// Two fingers on a pane zoom it around their midpoint.
function pinchToZoom(pane) {
  const touches = new Map();
  let start = null;
  pane.viewport.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    touches.set(event.pointerId, event);
    if (touches.size === 2) {
      const [a, b] = [...touches.values()];
      start = { distance: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY), tile: state.tile };
      pane.pinch = true;
    }
  });
  pane.viewport.addEventListener("pointermove", (event) => {
    if (!touches.has(event.pointerId)) return;
    touches.set(event.pointerId, event);
    if (touches.size === 2 && start) {
      const [a, b] = [...touches.values()];
      const distance = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
      zoomTo(start.tile * distance / start.distance, pane, (a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2);
    }
  });
  const lifted = (event) => {
    touches.delete(event.pointerId);
    if (touches.size < 2) { start = null; pane.pinch = false; }
  };
  pane.viewport.addEventListener("pointerup", lifted);
  pane.viewport.addEventListener("pointercancel", lifted);
}

// MARK: Files from the desktop (native drag and drop: only for files)

const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");

function acceptFiles(pane) {
  const view = pane.viewport;
  view.addEventListener("dragover", (event) => {
    if (!carriesFiles(event) || !pane.album) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    view.classList.add("file-over");
    pane.mark(pane.slotAt(event.clientX, event.clientY), "copy");
    const box = view.getBoundingClientRect();
    if (event.clientY < box.top + EDGE) view.scrollTop -= 16;
    else if (event.clientY > box.bottom - EDGE) view.scrollTop += 16;
  });
  view.addEventListener("dragleave", () => { view.classList.remove("file-over"); pane.unmark(); });
  view.addEventListener("drop", (event) => {
    if (!carriesFiles(event) || !pane.album) return;
    event.preventDefault();
    view.classList.remove("file-over");
    pane.unmark();
    const files = [...event.dataTransfer.files];
    const slot = pane.slotAt(event.clientX, event.clientY);
    const revision = pane.album.revision;
    // Placeholders stand at once, before a byte is sent; the server's own replace them.
    const local = files.map((file, index) => ({ item_id: `local-${Date.now()}-${index}`, placeholder_id: -1, photo_id: null, source: file.name }));
    pane.items.splice(slot, 0, ...local);
    pane.uploading += 1;
    pane.render();
    upload(pane.name, files, slot + 1, revision).finally(() => {
      pane.uploading -= 1;
      if (pane.uploading === 0) pane.reload();
    });
  });
}

function acceptFilesInto(entry, name) {
  entry.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    entry.classList.add("drop-target");
  });
  entry.addEventListener("dragleave", () => entry.classList.remove("drop-target"));
  entry.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    entry.classList.remove("drop-target");
    upload(name, [...event.dataTransfer.files], null, null);
  });
}

/// Sends files; the server answers once their placeholders stand, and
/// each becomes a photo as its load commits (both arrive as change sets).
async function upload(album, files, at, revision) {
  if (!files.length) return;
  const form = new FormData();
  for (const file of files) form.append("files", file, file.name);
  const query = new URLSearchParams();
  if (at !== null) query.set("at", at);
  if (revision !== null) query.set("expect_revision", revision);
  say(`Sending ${plural(files.length, "file")} to ${album}…`);
  try {
    const answer = await api(`/api/albums/${encodeURIComponent(album)}/files?${query}`, { method: "POST", body: form });
    say(`${plural(answer.placeholders.length, "photo")} loading into ${album} from position ${answer.position}.`);
  } catch (error) {
    await refused(error, "Not added");
  }
}

// MARK: Details

async function showDetails(pane, itemId) {
  const item = pane.items[pane.indexOf(itemId)];
  if (!item) return;
  const dialog = document.getElementById("details");
  document.getElementById("details-title").textContent = item.file ?? `loading ${item.source}`;
  const image = document.getElementById("details-image");
  image.hidden = item.photo_id === null;
  if (item.photo_id !== null) image.src = `/api/photos/${item.photo_id}/thumbnail?size=1024`;
  const orientation = { 1: "upright", 2: "mirrored", 3: "upside down", 4: "upside down, mirrored", 5: "on its side, mirrored", 6: "turned right", 7: "on its side, mirrored", 8: "turned left" }[item.orientation];
  const facts = [
    ["Position", `${item.position} of ${pane.items.length} in ${pane.name}`],
    ["Taken", item.captured_at ?? "unknown"],
    ["Shown as", item.display_width ? `${item.display_width} × ${item.display_height} pixels` : "unknown"],
    ["Stored as", item.pixel_width ? `${item.pixel_width} × ${item.pixel_height}, ${orientation ?? "upright"}` : "unknown"],
    ["Type", item.media_type],
    ["Size", item.byte_count ? `${(item.byte_count / 1048576).toFixed(2)} MiB` : null],
    ["Photo id", item.photo_id],
    ["File", item.source],
    ["SHA-256", item.sha256],
  ].filter(([, value]) => value !== null && value !== undefined);
  document.getElementById("details-facts").replaceChildren(...facts.flatMap(([term, value]) => [
    Object.assign(document.createElement("dt"), { textContent: term }),
    Object.assign(document.createElement("dd"), { textContent: value }),
  ]));
  dialog.showModal();
}

document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());

// MARK: History: undo and redo, from here or from anywhere

const undoButton = document.getElementById("undo-button");
const redoButton = document.getElementById("redo-button");

/// The buttons say what they would undo or redo now (any writer's change).
async function refreshHistory() {
  const history = await api("/api/history?limit=1");
  for (const [button, entry, verb] of [[undoButton, history.next_undo, "Undo"], [redoButton, history.next_redo, "Redo"]]) {
    button.disabled = !entry;
    button.title = entry ? `${verb}: ${entry.description}` : `Nothing to ${verb.toLowerCase()}`;
    button.setAttribute("aria-label", button.title);
  }
}

async function replay(undoing) {
  try {
    const answer = await api(undoing ? "/api/undo" : "/api/redo", { method: "POST" });
    await applyAnswer(answer.changes);
    say(`${undoing ? "Undone" : "Redone"}: ${answer.entry.description}.`);
  } catch (error) {
    await refused(error, undoing ? "Not undone" : "Not redone");
    refreshHistory().catch(() => {});
  }
}

undoButton.addEventListener("click", () => replay(true));
redoButton.addEventListener("click", () => replay(false));
document.addEventListener("keydown", (event) => {
  const key = event.key.toLowerCase();
  if (!(event.ctrlKey || event.metaKey) || event.altKey || (key !== "z" && key !== "y")) return;
  if (state.drag || state.lift || document.querySelector("dialog[open]")) return;
  event.preventDefault();
  replay(key === "z" && !event.shiftKey);
});

// MARK: Live: every committed change, from any writer, as change sets

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("change", async (message) => {
    const change = JSON.parse(message.data);
    if (change.follows_a_gap) { await Promise.all(state.panes.map((pane) => pane.reload())); await loadAlbums(); return; }
    for (const changes of change.operations) {
      for (const set of changes) {
        for (const pane of state.panes) {
          if (!(await pane.apply(set))) await pane.reload();
        }
      }
    }
    await loadAlbums();
  });
  events.addEventListener("error", () => say("Lost the server; reconnecting…", true));
  events.addEventListener("open", () => { if (statusLine.textContent.startsWith("Lost the server")) { say("Connected again."); Promise.all(state.panes.map((pane) => pane.reload())); } });
}

state.panes = [new Pane(0), new Pane(1)];
await loadAlbums();
await state.panes[0].open(state.albums[0]?.name ?? null);
await state.panes[1].open(state.albums[1]?.name ?? null);
listen();
document.body.dataset.ready = "true";
