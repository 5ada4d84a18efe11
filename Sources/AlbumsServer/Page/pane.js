// A pane: one album as a virtualized grid of thumbnails. Only the rows in
// view (and a few beyond) are in the DOM, however long the album.

import { api, itemsPath, thumbnailURL } from "./api.js";
import { positionsToRead, replayChange } from "./change-replay.js";
import { choose } from "./selection.js";
import { element, plural, say, state } from "./state.js";

export const GAP = 8;
const PAGE = 2000;        // items per request when an album opens
const OVERSCAN = 2;       // rows rendered beyond the visible ones

/// Hooks the other modules attach to tiles and panes (set by app.js),
/// so that this module needs none of them.
export const tileHooks = { pointerDown: null, open: null, contextMenu: null, keyDown: null, opened: null, paneCreated: null };

export class Pane {
  constructor(index) {
    this.index = index;
    this.section = document.getElementById(`pane-${index}`);
    this.viewport = this.section.querySelector(".viewport");
    this.canvas = this.section.querySelector(".canvas");
    this.choice = this.section.querySelector(".album-choice");
    this.info = this.section.querySelector(".pane-info");
    this.selectionBar = this.section.querySelector(".selection-bar");
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
    this.viewport.addEventListener("keydown", (event) => tileHooks.keyDown?.(event, this));
    this.viewport.addEventListener("focus", () => {
      state.focused = this.index;
      if (this.active === null && this.items[0]) this.setActive(this.items[0].item_id);
    });
    this.section.addEventListener("pointerdown", () => { state.focused = this.index; });
    this.choice.addEventListener("change", () => this.open(this.choice.value).catch((error) => say(error.message, true)));
    this.section.querySelector(".clear-selection").addEventListener("click", () => this.clearSelection());
    new ResizeObserver(() => this.render()).observe(this.viewport);
    tileHooks.paneCreated?.(this);
  }

  /// As many columns of the chosen size as fit; the tiles then stretch a little to fill the row.
  get columns() { return Math.max(1, Math.floor((this.viewport.clientWidth - GAP) / (state.tile + GAP))); }
  get size() { return Math.max(Math.min(state.tile, this.viewport.clientWidth - 2 * GAP), Math.floor((this.viewport.clientWidth - GAP) / this.columns) - GAP); }
  get cell() { return this.size + GAP; }
  get ids() { return this.items.map((item) => item.item_id); }

  /// Shows the album `name`, reading its items a page at a time.
  async open(name) {
    this.name = name;
    this.selected.clear();
    this.active = null;
    if (!name) { this.album = null; this.items = []; this.render(); tileHooks.opened?.(this); return; }
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
    tileHooks.opened?.(this);
  }

  async reload() {
    if (!this.name) return;
    const { scrollTop } = this.viewport;
    const selected = this.selected;
    const active = this.active;
    try {
      await this.open(this.name);
    } catch (error) {
      if (error.code === "album_not_found") { const gone = this.name; await this.open(null); say(`${gone} is gone.`); return; }
      throw error;
    }
    const present = new Set(this.ids);
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
    const album = this.album;
    this.info.textContent = album ? `${plural(album.count, "photo")}${album.pending ? `, ${album.pending} loading` : ""}${album.locked ? " · 🔒 locked" : ""}` : "";
    this.section.classList.toggle("locked", Boolean(album?.locked));
    this.viewport.setAttribute("aria-label", album ? `${album.name}, ${plural(count, "item")}` : "No album");
    // A listbox holds options: an empty grid is a plain group.
    this.viewport.setAttribute("role", count ? "listbox" : "group");
    if (count) this.viewport.setAttribute("aria-multiselectable", "true"); else this.viewport.removeAttribute("aria-multiselectable");
    this.renderSelectionBar();
    const rows = Math.ceil(count / this.columns);
    this.canvas.style.height = `${rows * this.cell + GAP}px`;
    if (!album) {
      this.clearTiles();
      this.canvas.append(element("p", { className: "empty", textContent: "Choose an album." }));
      return;
    }
    if (count === 0) {
      this.clearTiles();
      this.canvas.append(element("p", { className: "empty", textContent: "No photos yet: add some with the button above, or drag them here." }));
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
    for (const [id, tile] of this.elements) {
      if (!wanted.has(id)) { tile.remove(); this.elements.delete(id); }
    }
    const lifted = new Set(this.liftedIds());
    for (const [id, index] of wanted) this.place(this.items[index], index, lifted.has(id));
    if (this.active !== null && this.elements.has(this.active)) {
      this.viewport.setAttribute("aria-activedescendant", this.elements.get(this.active).id);
    } else {
      this.viewport.removeAttribute("aria-activedescendant");
    }
  }

  renderSelectionBar() {
    const count = this.selected.size;
    this.selectionBar.hidden = count === 0;
    this.section.classList.toggle("selecting", count > 0);
    this.selectionBar.querySelector(".selection-count").textContent = `${plural(count, "photo")} selected`;
  }

  liftedIds() {
    if (state.drag && state.drag.pane === this) return state.drag.items;
    if (state.lift && state.lift.pane === this) return state.lift.items;
    return [];
  }

  place(item, index, lifted) {
    let tile = this.elements.get(item.item_id);
    const kind = item.placeholder_id !== null ? `placeholder-${item.progress === undefined ? "" : "upload"}` : `photo-${item.photo_id}`;
    if (!tile || tile.dataset.kind !== kind) {
      tile?.remove();
      tile = makeTile(this, item);
      tile.dataset.kind = kind;
      this.elements.set(item.item_id, tile);
      this.canvas.append(tile);
    }
    const frame = this.frame(index);
    tile.style.left = `${frame.left}px`;
    tile.style.top = `${frame.top}px`;
    tile.style.width = tile.style.height = `${frame.size}px`;
    tile.querySelector(".position").textContent = index + 1;
    tile.setAttribute("aria-posinset", index + 1);
    tile.setAttribute("aria-setsize", this.items.length);
    tile.setAttribute("aria-selected", this.selected.has(item.item_id));
    tile.classList.toggle("selected", this.selected.has(item.item_id));
    tile.classList.toggle("active", this.active === item.item_id && document.activeElement === this.viewport);
    tile.classList.toggle("lifted", lifted);
    const progress = tile.querySelector("progress");
    if (progress && item.progress !== undefined) progress.value = item.progress;
    const image = tile.querySelector("img");
    if (image) {
      const source = thumbnailURL(item.photo_id, frame.size);
      if (image.getAttribute("src") !== source) image.src = source;
    }
  }

  setActive(itemId, { scroll = true } = {}) {
    this.active = itemId;
    if (scroll) this.reveal(this.indexOf(itemId));
    this.render();
  }

  /// Chooses `itemId` as a click would (modifiers: toggle, extend); clears the other pane's selection.
  choose(itemId, { toggle = false, extend = false } = {}) {
    for (const other of state.panes) if (other !== this && other.selected.size) { other.selected.clear(); other.render(); }
    ({ selected: this.selected, anchor: this.anchor } = choose({ selected: this.selected, anchor: this.anchor, ids: this.ids, id: itemId, toggle, extend }));
    this.active = itemId;
    state.focused = this.index;
    this.render();
  }

  selectAll() {
    this.selected = new Set(this.ids);
    this.render();
    say(`${plural(this.selected.size, "photo")} selected in ${this.name}.`);
  }

  clearSelection() {
    if (!this.selected.size) return;
    this.selected.clear();
    this.render();
    say("Selection cleared.");
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
    const marker = element("div", { className: `slot-marker ${kind}` });
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

  /// Applies a committed change set (see change-replay.js). Answers false
  /// when it cannot be applied and the album must be read again.
  async apply(change) {
    if (!this.album) return true;
    if (this.uploading > 0) return true;  // read again once the upload is answered
    if (change.album_id !== this.album.id) return true;   // another album's (ids survive renames)
    if (change.album_events.includes("deleted")) { await this.open(null); say(`${change.album} was deleted.`); return true; }
    if (change.revision <= this.album.revision) return true;   // seen already (our own write's answer)
    if (change.revision !== this.album.revision + 1) return false;
    const fetched = await this.fetchAt(positionsToRead(change));
    if (!fetched || change.revision !== this.album?.revision + 1) return false;
    const result = replayChange(this.items, change, (position) => fetched.get(position));
    if (!result) return false;
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
  const tile = element("div", { className: "tile", id: `tile-${pane.index}-${item.item_id}` });
  tile.setAttribute("role", "option");
  tile.dataset.itemId = item.item_id;
  const position = element("span", { className: "position" });
  if (item.placeholder_id !== null) {
    tile.classList.add("placeholder");
    const name = (item.source || "").split("/").pop();
    tile.setAttribute("aria-label", `loading ${name}`);
    const label = element("span", { className: "loading", textContent: item.progress === undefined ? `loading ${name}` : `sending ${name}` });
    tile.append(label, position);
    if (item.progress !== undefined) tile.append(element("progress", { max: 1, value: item.progress }));
  } else {
    const captured = item.captured_at ? `, taken ${item.captured_at.slice(0, 10)}` : "";
    tile.setAttribute("aria-label", `${item.file}, ${item.display_width}×${item.display_height}${captured}`);
    tile.title = item.file;
    const image = element("img", { alt: "", decoding: "async", draggable: false });
    image.addEventListener("error", () => tile.classList.add("failed"));
    const caption = element("span", { className: "caption" },
      element("span", { className: "caption-name", textContent: item.file }),
      element("span", { className: "caption-date", textContent: item.captured_at ? item.captured_at.slice(0, 10) : "no date" }));
    tile.append(image, position, caption);
  }
  tile.addEventListener("pointerdown", (event) => tileHooks.pointerDown?.(event, pane, item.item_id));
  tile.addEventListener("dblclick", () => tileHooks.open?.(pane, item.item_id));
  tile.addEventListener("contextmenu", (event) => tileHooks.contextMenu?.(event, pane, item.item_id));
  return tile;
}
