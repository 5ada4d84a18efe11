// A pane: one album as justified rows of photos, edge to edge at their own
// shapes, as the timeline shows the library (album-layout.js). Only the
// rows in view (and a few beyond) are in the DOM, and only the items
// around them are read from the server, however long the album: the
// scrollbar stands for the whole album, and a jump anywhere reads that
// window. When reading lays rows out again, the photo at the top of the
// view stays where it was.

import { api, itemsPath, thumbnailURL } from "../core/api.js";
import { AlbumLayout } from "../model/album-layout.js";
import { ItemWindow, positionsToRead } from "../model/item-window.js";
import { aspectOf } from "../../common/justified-rows.js";
import { contentsText, durationWords, element, isVideo, plural, say, state } from "../core/state.js";
import { chipsOf } from "../model/search-query.js";
import { PhotoGrid, liveBadge, videoBadge } from "./photo-grid.js";
import { LIBRARY, Timeline, timelineHooks } from "./timeline.js";

const GAP = 4;
const OVERSCAN = 2;          // rows' heights drawn beyond the view, above and below
const READ_AHEAD = 3;        // screens of items read beyond the visible ones
const PAGE = 2000;           // the most items one request returns
const KEPT = 20_000;         // loaded items kept however far a person scrolls
/// Browsers cannot lay out an element much taller than 2^25 pixels: past
/// this height the scrollbar stands for the album in proportion.
const TALLEST_CANVAS = 8_000_000;

/// Hooks the other modules attach to tiles and panes (set by app.js),
/// so that this module needs none of them.
export const tileHooks = { pointerDown: null, open: null, contextMenu: null, keyDown: null, opened: null, paneCreated: null };

/// An album's grid: what it shares with the timeline is PhotoGrid's.
export class Pane extends PhotoGrid {
  constructor(index) {
    super(index);
    this.section = document.getElementById(`pane-${index}`);
    this.section.append(document.getElementById("pane-template").content.cloneNode(true));
    this.viewport = this.section.querySelector(".viewport");
    this.canvas = this.section.querySelector(".canvas");
    this.choice = this.section.querySelector(".album-choice");
    this.choice.setAttribute("aria-label", `Album on the ${index === 0 ? "left" : "right"}`);
    this.info = this.section.querySelector(".pane-info");
    this.selectionBar = this.section.querySelector(".selection-bar");
    this.holder = this.section;
    this.name = null;
    this.album = null;
    this.window = new ItemWindow(0);
    this.elements = new Map();   // item id → rendered tile
    this.uploading = 0;          // uploads whose local placeholders stand in the window
    this.reading = null;         // the read of a window in flight
    this.timeline = null;        // the library's timeline, made when first shown here
    this.estimate = 1.5;         // the shape taken for photos not read yet (the album's first ones' mean)
    this.laidOut = null;         // the layout and what it was made for
    this.drawn = null;           // the layout last drawn
    this.viewAnchor = null;      // the item a zoom keeps in place when the layout changes: { index, fraction, y }
    this.pointed = null;         // the slot a pointer last pointed at, and whether at a row's end
    this.viewport.id = `grid-${index}`;
    this.viewport.addEventListener("scroll", () => this.render());
    this.viewport.addEventListener("keydown", (event) => tileHooks.keyDown?.(event, this));
    this.viewport.addEventListener("focus", () => {
      state.focused = this.index;
      const first = this.itemAt(0);
      if (this.active === null && first) this.setActive(first.item_id);
    });
    this.section.addEventListener("pointerdown", () => { state.focused = this.index; });
    this.choice.addEventListener("change", () => this.open(this.choice.value).catch((error) => say(error.message, true)));
    this.section.querySelector(".clear-selection").addEventListener("click", () => this.clearSelection());
    new ResizeObserver(() => this.render()).observe(this.viewport);
    tileHooks.paneCreated?.(this);
  }

  // MARK: The items

  /// How many items the album holds (placeholders included).
  get count() { return this.window.count; }
  /// The item at `index`, or undefined while it is not read.
  itemAt(index) { return this.window.at(index); }
  indexOf(itemId) { return this.window.indexOf(itemId); }
  /// The ids of the items read, in album order.
  get ids() { return this.window.ids(); }
  /// How many items the album holds, read or not.
  get extent() { return this.count; }
  /// Whether the items of [from, to) are read.
  covers(from, to) { return this.window.covers(from, to); }
  /// Reads the items of [from, to) not read yet.
  async readRange(from, to) { if (!this.covers(from, to)) await this.read(from, to); }

  /// The item at `index`, read first if need be.
  async load(index) {
    if (!this.itemAt(index) && index >= 0 && index < this.count) await this.read(index, index + 1);
    return this.itemAt(index);
  }

  /// Reads the items of [first, last) not read yet (with what lies around
  /// them, a page at a time), then draws them.
  async read(first, last) {
    while (this.reading) await this.reading.catch(() => {});
    const runs = this.window.missing(first, last);
    if (!runs.length || !this.album) return;
    const name = this.name;
    const revision = this.album.revision;
    this.reading = (async () => {
      for (const [start, end] of runs) {
        for (let offset = start; offset < end; offset += PAGE) {
          const page = await api(itemsPath(name, offset, Math.min(PAGE, end - offset)));
          // A page from another revision would not fit: the change set that
          // made it is on its way, and the window is read again after it.
          if (this.name !== name || page.album.revision !== revision || this.album?.revision !== revision) return;
          this.window.put(offset, page.items);
        }
      }
    })();
    try {
      await this.reading;
    } finally {
      this.reading = null;
    }
    this.render();
  }

  /// Whether the pane shows the library's timeline rather than an album.
  get showsLibrary() { return this.section.classList.contains("library"); }

  /// Shows the library as a timeline, searched with `chips` (search-query.js);
  /// with `smart`, an entry of the album list, as that smart album.
  async showLibrary(chips = [], smart = null) {
    await this.open(null);
    if (!this.timeline) {
      this.timeline = new Timeline(this);
      timelineHooks.created?.(this.timeline);
    }
    this.section.classList.add("library");
    this.timeline.root.hidden = false;
    this.choice.value = smart?.name ?? LIBRARY;
    this.timeline.smart = smart;
    await this.timeline.show(chips);
    tileHooks.opened?.(this);
  }

  /// Shows the album `name`, reading only its first screens.
  async open(name) {
    if (name === LIBRARY) return this.showLibrary();
    // A smart album is its search, shown as the library's timeline shows one.
    const smart = state.albums.find((album) => album.name === name && album.smart);
    if (smart) return this.showLibrary(chipsOf(smart.search), smart);
    this.section.classList.remove("library");
    if (this.timeline) this.timeline.root.hidden = true;
    this.name = name;
    this.selected.clear();
    this.active = null;
    this.anchor = null;
    if (!name) { this.album = null; this.window = new ItemWindow(0); this.viewAnchor = null; this.clearTiles(); this.render(); tileHooks.opened?.(this); return; }
    const page = await api(itemsPath(name, 0, this.screenful()));
    if (this.name !== name) return;  // another album was chosen meanwhile
    this.album = page.album;
    this.window = new ItemWindow(page.album.count);
    this.window.put(0, page.items);
    const photos = page.items.filter((item) => item.placeholder_id === null);
    this.estimate = photos.length ? photos.reduce((sum, item) => sum + aspectOf(item), 0) / photos.length : 1.5;
    this.viewAnchor = null;
    this.drawn = null;
    this.clearTiles();
    this.viewport.scrollTop = 0;
    this.render();
    tileHooks.opened?.(this);
  }

  /// Reads the album again where it is shown, keeping the selection that is still there.
  async reload() {
    if (!this.name) return;
    const selected = this.selected;
    const active = this.active;
    const first = this.firstVisibleIndex();
    let page;
    try {
      const album = (await api(itemsPath(this.name, 0, 1))).album;
      const offset = Math.max(0, Math.min(first - this.screenful() / (READ_AHEAD + 1), album.count - 1));
      page = await api(itemsPath(this.name, offset, this.screenful()));
      page.offset = offset;
    } catch (error) {
      if (error.code === "album_not_found") { const gone = this.name; await this.open(null); say(`${gone} is gone.`); return; }
      throw error;
    }
    this.album = page.album;
    this.window = new ItemWindow(page.album.count);
    this.window.put(page.offset, page.items);
    this.selected = new Set([...selected].filter((id) => this.indexOf(id) >= 0));
    this.active = this.indexOf(active) >= 0 ? active : null;
    this.render();
  }

  // MARK: Geometry

  /// The rows' height the zoom asks for.
  get target() { return state.tile; }

  /// The album laid out at this width and zoom, from what is read: made
  /// again only when one of those changed.
  get layout() {
    const width = this.viewport.clientWidth || 800;
    const key = `${width}:${this.target}:${this.count}:${this.window.version}:${this.estimate}`;
    if (this.laidOut?.key !== key) {
      const window = this.window;
      this.laidOut = {
        key,
        layout: new AlbumLayout({
          count: this.count, width, target: this.target, gap: GAP, estimate: this.estimate,
          readIndexes: window.items.keys(),
          // A placeholder stands as a square until its photo is there.
          aspectAt: (index) => { const item = window.at(index); return item ? (item.placeholder_id === null ? aspectOf(item) : 1) : null; },
        }),
      };
    }
    return this.laidOut.layout;
  }

  /// The album's height as drawn at this size, however tall.
  get contentHeight() { return this.layout.height; }
  /// How many content pixels one scrolled pixel stands for (1 unless the album is taller than a browser draws).
  get scale() { return this.scaleFor(this.contentHeight); }
  scaleFor(height) {
    const view = this.viewport.clientHeight;
    return height <= TALLEST_CANVAS || view >= TALLEST_CANVAS ? 1 : (height - view) / (TALLEST_CANVAS - view);
  }
  /// Where the view's top stands in the album's content.
  get contentTop() { return this.viewport.scrollTop * this.scale; }
  set contentTop(top) { this.viewport.scrollTop = top / this.scale; }
  /// What to add to a content position to place it in the canvas.
  get shift() { return this.viewport.scrollTop - this.contentTop; }

  /// The items a screen holds, about, with rows read ahead.
  screenful() {
    const across = Math.max(1, Math.floor((this.viewport.clientWidth || 800) / (this.estimate * this.target + GAP)));
    const rows = Math.ceil((this.viewport.clientHeight || 900) / Math.max(this.target, 40)) + 1;
    return Math.min(PAGE, rows * across * (READ_AHEAD + 1));
  }

  firstVisibleIndex() { return this.layout.between(this.contentTop, this.contentTop + 1)[0]; }

  /// Where the tile at `index` stands in the album's content: `{ left, top, width, height }`.
  frame(index) { return this.layout.frame(index); }

  /// Keeps the item at `index` where it is on screen when the layout next
  /// changes (a zoom): `fraction` of the way down it, `y` pixels below the
  /// view's top.
  keepInView(index, fraction, y) { this.viewAnchor = { index, fraction, y }; }

  /// The item at the view's top in `layout` (rows drawn before), and how far
  /// below the top it stands, as `keepInView` takes them; null for none.
  topItem(layout) {
    if (!layout.count) return null;
    const top = this.viewport.scrollTop * this.scaleFor(layout.height);
    const [index] = layout.between(top, top + 1);
    return index < layout.count ? { index, fraction: 0, y: layout.frame(index).top - top } : null;
  }

  clearTiles() {
    this.canvas.replaceChildren();
    this.elements.clear();
  }

  // MARK: Drawing

  /// Renders the rows in view (and a few beyond), reusing tiles by item id,
  /// and reads the items around them that are not read yet.
  render() {
    if (this.showsLibrary) { this.timeline.render(); this.timeline.renderInfo(); return; }
    const count = this.count;
    const album = this.album;
    this.info.textContent = album ? `${contentsText(album.count, album.videos)}${album.pending ? `, ${album.pending} loading` : ""}${album.locked ? " · 🔒 locked" : ""}` : "";
    this.section.classList.toggle("locked", Boolean(album?.locked));
    this.viewport.setAttribute("aria-label", album ? `${album.name}, ${plural(count, "item")}` : "No album");
    // A listbox holds options: an empty grid is a plain group.
    this.viewport.setAttribute("role", count ? "listbox" : "group");
    if (count) this.viewport.setAttribute("aria-multiselectable", "true"); else this.viewport.removeAttribute("aria-multiselectable");
    this.renderSelectionBar();
    this.canvas.style.height = `${Math.min(this.contentHeight, TALLEST_CANVAS)}px`;
    if (!album || count === 0) {
      this.clearTiles();
      this.canvas.append(element("p", { className: "empty", textContent: album ? "No photos yet: add some with the button above, or drag them here." : "Choose an album." }));
      return;
    }
    this.canvas.querySelector(".empty")?.remove();
    const layout = this.layout;
    // Rows laid out again (more read, a zoom): the photo at the view's top
    // (in the rows as they were drawn, where the view is now), or the one a
    // zoom names, stays where it is seen.
    if (this.drawn && this.drawn !== layout) {
      const anchor = this.viewAnchor ?? this.topItem(this.drawn);
      if (anchor && anchor.index < count) {
        const frame = layout.frame(anchor.index);
        const top = Math.max(0, frame.top + anchor.fraction * frame.height - anchor.y);
        if (Math.abs(top - this.contentTop) >= 1) this.contentTop = top;
      }
    }
    this.drawn = layout;
    this.viewAnchor = null;
    const top = this.contentTop;
    const [first, last] = layout.between(top - OVERSCAN * this.target, top + this.viewport.clientHeight + OVERSCAN * this.target);
    // Index → item for what is drawn; the active tile stays drawn for aria-activedescendant.
    const wanted = new Map();
    for (let index = first; index < last; index++) {
      const item = this.itemAt(index);
      if (item) wanted.set(item.item_id, index);
    }
    if (this.active !== null && !wanted.has(this.active)) {
      const index = this.indexOf(this.active);
      if (index >= 0) wanted.set(this.active, index);
    }
    for (const [id, tile] of this.elements) {
      if (!wanted.has(id)) { tile.remove(); this.elements.delete(id); }
    }
    const lifted = new Set(this.liftedIds());
    const shift = this.shift;
    for (const [id, index] of wanted) this.place(this.itemAt(index), index, layout.frame(index), lifted.has(id), shift);
    if (this.active !== null && this.elements.has(this.active)) {
      this.viewport.setAttribute("aria-activedescendant", this.elements.get(this.active).id);
    } else {
      this.viewport.removeAttribute("aria-activedescendant");
    }
    // Read what is about to come into view; forget what is far behind.
    const ahead = (last - first) * READ_AHEAD;
    if (!this.window.covers(first, last + ahead) && !this.reading) {
      this.read(Math.max(0, first - ahead), last + ahead).catch(() => {});
    }
    if (this.window.loaded > KEPT) this.window.trim(first, last, KEPT, new Set([...this.selected, this.active]));
  }

  renderSelectionBar() {
    super.renderSelectionBar();
    this.selectionBar.querySelector(".use-as-cover").hidden = this.selected.size !== 1;
  }

  liftedIds() {
    if (state.drag && state.drag.pane === this) return state.drag.items;
    if (state.lift && state.lift.pane === this) return state.lift.items;
    return [];
  }

  place(item, index, frame, lifted, shift) {
    let tile = this.elements.get(item.item_id);
    const kind = item.placeholder_id !== null ? `placeholder-${item.progress === undefined ? "" : "upload"}` : `photo-${item.photo_id}`;
    if (!tile || tile.dataset.kind !== kind) {
      tile?.remove();
      tile = makeTile(this, item);
      tile.dataset.kind = kind;
      this.elements.set(item.item_id, tile);
      this.canvas.append(tile);
    }
    tile.style.left = `${frame.left}px`;
    tile.style.top = `${frame.top + shift}px`;
    tile.style.width = `${frame.width}px`;
    tile.style.height = `${frame.height}px`;
    tile.querySelector(".position").textContent = (index + 1).toLocaleString("en");
    tile.setAttribute("aria-posinset", index + 1);
    tile.setAttribute("aria-setsize", this.count);
    tile.setAttribute("aria-selected", this.selected.has(item.item_id));
    tile.classList.toggle("selected", this.selected.has(item.item_id));
    tile.classList.toggle("active", this.active === item.item_id && document.activeElement === this.viewport);
    tile.classList.toggle("lifted", lifted);
    const progress = tile.querySelector("progress");
    if (progress && item.progress !== undefined) progress.value = item.progress;
    const image = tile.querySelector("img");
    if (image) {
      const source = thumbnailURL(item.photo_id, Math.max(frame.width, frame.height));
      if (image.getAttribute("src") !== source) image.src = source;
    }
  }

  // MARK: Places on screen

  /// Scrolls just enough for the tile at `index` to be seen whole.
  reveal(index) {
    if (index < 0 || index >= this.count) return;
    const { top, height } = this.frame(index);
    const view = this.contentTop;
    if (top - GAP < view) this.contentTop = top - GAP;
    else if (top + height + GAP > view + this.viewport.clientHeight) this.contentTop = top + height + GAP - this.viewport.clientHeight;
  }

  /// The point (x, y) on screen in the album's content.
  contentPoint(x, y) {
    const box = this.viewport.getBoundingClientRect();
    return [x - box.left, y - box.top + this.contentTop];
  }

  /// The insertion slot (0 … count) nearest the point (x, y) on screen.
  slotAt(x, y) {
    const layout = this.layout;
    this.pointed = null;
    if (!this.count) return 0;
    const [left, top] = this.contentPoint(x, y);
    const slot = layout.slotAt(left, top);
    // Right of a row's last photo: its marker stands there, not at the next row's start.
    const row = layout.row(layout.rowAt(top));
    this.pointed = { slot, after: slot === row.first + row.count };
    return slot;
  }

  /// The item index under (x, y), for zooming around it.
  indexAt(x, y) { return this.layout.indexAt(...this.contentPoint(x, y)); }

  /// Draws the slot marker before the item at `slot` (or after the last).
  mark(slot, kind) {
    this.unmark();
    if (slot === null || !this.album) return;
    const marker = element("div", { className: `slot-marker ${kind}` });
    const after = this.pointed?.slot === slot && this.pointed.after;
    const { left, top, height } = this.layout.slotFrame(slot, { after });
    marker.style.left = `${left - 2}px`;
    marker.style.top = `${top + this.shift}px`;
    marker.style.height = `${height}px`;
    this.canvas.append(marker);
  }

  unmark() { this.canvas.querySelectorAll(".slot-marker").forEach((marker) => marker.remove()); }

  // MARK: Change sets

  /// Applies a committed change set to what is read (see item-window.js).
  /// Answers false when it cannot be applied and the album must be read again.
  async apply(change) {
    if (!this.album) return true;
    if (this.uploading > 0) return true;  // read again once the upload is answered
    if (change.album_id !== this.album.id) return true;   // another album's (ids survive renames)
    if (change.album_events.includes("deleted")) { await this.open(null); say(`${change.album} was deleted.`); return true; }
    if (change.revision <= this.album.revision) return true;   // seen already (our own write's answer)
    if (change.revision !== this.album.revision + 1) return false;
    // The inserted and updated items are read when they are near what is read.
    const loaded = [...this.window.items.keys()];
    const low = Math.min(...loaded, this.firstVisibleIndex()) - PAGE;
    const high = Math.max(...loaded, this.firstVisibleIndex()) + PAGE;
    const wanted = positionsToRead(change).filter((position) => position - 1 >= low && position - 1 <= high);
    const fetched = await this.fetchAt(wanted);
    if (!fetched || change.revision !== this.album?.revision + 1) return false;
    if (!this.window.replay(change, (position) => fetched.get(position))) return false;
    for (const id of change.removed_items) { this.selected.delete(id); if (this.active === id) this.active = null; }
    this.album = { ...this.album, name: change.album, revision: change.revision, count: this.window.count };
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
    const name = item.file ?? (item.source || "").split("/").pop();
    tile.setAttribute("aria-label", `loading ${name}`);
    const label = element("span", { className: "loading", textContent: item.progress === undefined ? `loading ${name}` : `sending ${name}` });
    tile.append(label, position);
    if (item.progress !== undefined) tile.append(element("progress", { max: 1, value: item.progress }));
  } else {
    const captured = item.captured_at ? `, taken ${item.captured_at.slice(0, 10)}` : "";
    const video = isVideo(item) ? `, ${durationWords(item.duration)}` : item.live_photo ? ", Live Photo" : "";
    tile.setAttribute("aria-label", `${item.file}${video}, ${item.display_width}×${item.display_height}${captured}`);
    tile.title = item.file;
    const image = element("img", { alt: "", decoding: "async", draggable: false });
    image.addEventListener("error", () => tile.classList.add("failed"));
    const caption = element("span", { className: "caption" },
      element("span", { className: "caption-name", textContent: item.file }),
      element("span", { className: "caption-date", textContent: item.captured_at ? item.captured_at.slice(0, 10) : "no date" }));
    tile.append(image, position, caption);
    if (isVideo(item)) tile.append(videoBadge(item.duration));
    else if (item.live_photo) tile.append(liveBadge());
  }
  tile.addEventListener("pointerdown", (event) => tileHooks.pointerDown?.(event, pane, item.item_id));
  tile.addEventListener("dblclick", () => tileHooks.open?.(pane, item.item_id));
  tile.addEventListener("contextmenu", (event) => tileHooks.contextMenu?.(event, pane, item.item_id));
  return tile;
}
