// The library as a timeline, in a pane: every photo a search finds,
// newest first, grouped by day, whether an album holds it or not. A search
// field turns what is typed into chips (search-query.js); a month chooser
// (and, where there is room, a strip of years) jumps through the years.
// Photos are selected as in an album and added to albums with "Add to
// album…", by drag onto an album, or with the keyboard; Enter or a tap
// opens one large.
//
// Only the rows in view are drawn (timeline-model.js lays them out), and
// at most KEPT photos are kept read: a jump starts the timeline again at
// the month chosen, with "Newer photos" to go back to the newest.

import { api, thumbnailURL } from "../core/api.js";
import { chipOf, queryOf, suggestionsFor, suggestionText, withChip } from "../model/search-query.js";
import { contentsText, durationWords, element, isVideo, say, state } from "../core/state.js";
import { cursorOf, layOut, mergeWindow, monthLabel, rowsBetween, stepFrom } from "../model/timeline-model.js";
import { PhotoGrid, liveBadge, videoBadge } from "./photo-grid.js";

/// The pane chooser's value for the timeline: no album's name holds a control character.
export const LIBRARY = "\u0001library";

const GAP = 4;
const HEADING = 40;
const OVERSCAN = 600;        // pixels drawn beyond the view
const PAGE = 400;            // photos one request reads
const KEPT = 20_000;         // photos kept read however far a person scrolls
const REFRESHED = 2_000;     // photos read again in one request when the library changes
const ABOVE = 500;           // of those, how many stand above the view's first
const NEAR = 200;            // photos from the view to stale ones that have them read again

/// What the timeline asks of the modules that act on photos (set by app.js).
export const timelineHooks = { pointerDown: null, open: null, addTo: null, albums: () => [], created: null, keepAsSmart: null, freeze: null };

/// The library's grid: what it shares with an album's is PhotoGrid's.
export class Timeline extends PhotoGrid {
  constructor(pane) {
    super(pane.index);
    this.pane = pane;
    this.isLibrary = true;
    this.root = pane.section.querySelector(".timeline");
    this.viewport = this.root.querySelector(".timeline-viewport");
    this.canvas = this.root.querySelector(".timeline-canvas");
    this.field = this.root.querySelector(".search-field");
    this.suggestions = this.root.querySelector("datalist");
    this.chipList = this.root.querySelector(".chips");
    this.monthChoice = this.root.querySelector(".month-choice");
    this.years = this.root.querySelector(".years");
    this.newer = this.root.querySelector(".newer");
    this.selectionBar = this.root.querySelector(".timeline-selection");
    this.holder = this.root;
    this.viewport.id = `timeline-${pane.index}`;
    this.suggestions.id = `search-suggestions-${pane.index}`;
    this.field.setAttribute("list", this.suggestions.id);
    this.chips = [];
    this.smart = null;           // the smart album shown (an entry of the album list), or null
    this.start = null;          // the cursor the photos read start after (null: the newest)
    this.photos = [];
    this.positions = new Map();  // photo id → index
    this.next = null;            // the cursor of the next page, null at the end
    // After a change, the photos read again around the view (indexes from,
    // to); those above and those below it up to staleEnd are as read before
    // the change, and read again as the view comes near them. Null: all current.
    this.fresh = null;
    this.refreshing = null;      // a read again for the view coming near stale photos
    this.reading = null;
    this.generation = 0;         // grows with each new search or jump: late answers are dropped
    this.total = null;           // photos the search finds, from its months
    this.videos = 0;             // how many of them are videos
    this.layout = { rows: [], places: [], height: 0 };
    this.elements = new Map();   // drawn tiles and headings by key
    this.viewport.addEventListener("scroll", () => this.render());
    this.viewport.addEventListener("keydown", (event) => this.keyDown(event));
    this.viewport.addEventListener("focus", () => {
      state.focused = this.index;
      if (this.active === null && this.photos.length) this.setActive(this.photos[0].photo_id, { scroll: false });
    });
    new ResizeObserver(() => { this.relayout(); this.render(); }).observe(this.viewport);
    this.field.addEventListener("input", () => this.suggest());
    this.field.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); this.addTyped(); }
      else if (event.key === "Backspace" && !this.field.value && this.chips.length) this.removeChip(this.chips.length - 1);
    });
    // Choosing a suggestion fills the field with its text: it becomes a chip at once.
    this.field.addEventListener("change", () => { if (this.suggestions.querySelector(`option[value="${CSS.escape(this.field.value)}"]`)) this.addTyped(); });
    this.root.querySelector(".search-go").addEventListener("click", () => this.addTyped());
    this.monthChoice.addEventListener("change", () => this.jump(this.monthChoice.value));
    this.newer.addEventListener("click", () => this.jump(""));
    this.selectionBar.querySelector(".add-to").addEventListener("click", () => timelineHooks.addTo?.(this));
    this.selectionBar.querySelector(".clear-selection").addEventListener("click", () => this.clearSelection());
    this.root.querySelector(".keep-smart").addEventListener("click", () => timelineHooks.keepAsSmart?.(this));
    this.root.querySelector(".freeze").addEventListener("click", () => timelineHooks.freeze?.(this));
  }

  // MARK: What the other modules read, as of an album's pane

  get name() { return this.smart?.name ?? (this.chips.some((each) => each.kind === "no_album") ? "Photos in no album" : "All photos"); }
  get count() { return this.photos.length; }
  get ids() { return this.photos.map((photo) => photo.photo_id); }
  indexOf(id) { return this.positions.get(id) ?? -1; }
  isVideoAt(index) { return isVideo(this.photos[index]); }
  /// A found photo as an album's item reads (the viewer shows either).
  itemAt(index) {
    const photo = this.photos[index];
    return photo && { ...photo, item_id: photo.photo_id, placeholder_id: null, position: index + 1 };
  }
  /// The photo at `index`, reading pages until it is read (or the search ends).
  async load(index) {
    while (index >= this.photos.length && this.next) await this.more();
    return this.itemAt(index);
  }
  /// How many photos the search finds, read or not (as its months count them).
  get extent() { return this.total ?? this.photos.length; }
  /// Whether the photos of [from, to) are read.
  covers(from, to) { return to <= this.photos.length || !this.next; }
  /// Reads pages on until the photos of [from, to) are read, or the search ends.
  async readRange(from, to) { while (!this.covers(from, to)) await this.more(); }

  /// Photos were added to `album` from here: they say so, and a search
  /// for photos in no album lets them go.
  added(photoIds, album) {
    const added = new Set(photoIds);
    for (const photo of this.photos) {
      if (added.has(photo.photo_id) && !photo.albums.includes(album)) photo.albums = [...photo.albums, album].sort();
    }
    for (const id of added) { this.elements.get(id)?.remove(); this.elements.delete(id); }
    if (this.chips.some((each) => each.kind === "no_album")) {
      this.videos -= this.photos.filter((photo) => added.has(photo.photo_id) && isVideo(photo)).length;
      this.photos = this.photos.filter((photo) => !added.has(photo.photo_id));
      this.positions = new Map(this.photos.map((photo, index) => [photo.photo_id, index]));
      if (this.total !== null) this.total -= added.size;
      if (added.has(this.active)) this.active = null;
      this.relayout();
      this.renderInfo();
    }
    this.render();
  }

  // MARK: Searching

  /// Shows what the chips find, from the newest photo.
  async show(chips = this.chips) {
    this.chips = chips;
    this.renderChips();
    await this.jump("");
    this.readMonths();
  }

  /// Starts the timeline at a month's start cursor ("" : the newest photo).
  async jump(start) {
    const generation = ++this.generation;
    this.start = start || null;
    this.photos = [];
    this.fresh = null;
    this.positions.clear();
    this.next = null;
    this.selected.clear();
    this.active = null;
    this.anchor = null;
    this.canvas.replaceChildren();
    this.elements.clear();
    this.newer.hidden = !this.start;
    this.monthChoice.value = start;
    this.viewport.scrollTop = 0;
    this.canvas.append(element("p", { className: "empty", textContent: "Looking…" }));
    await this.read(this.start, generation);
  }

  /// Reads the next page of what the search finds.
  async more() {
    if (!this.next) return;
    await this.read(this.next, this.generation);
  }

  async read(after, generation) {
    while (this.reading) await this.reading.catch(() => {});
    if (generation !== this.generation) return;
    // A smart album naming an album not there for its reader shows nothing.
    if (this.smart?.search?.unavailable) { this.next = null; this.relayout(); this.render(); return; }
    const limit = this.photos.length ? PAGE : Math.min(PAGE, this.screenful() * 2);
    this.reading = api(this.photosPath(limit, after));
    let page;
    try {
      page = await this.reading;
    } catch (error) {
      say(error.message, true);
      return;
    } finally {
      this.reading = null;
    }
    if (generation !== this.generation) return;
    if (this.photos.length + page.photos.length > KEPT) {
      // Far from where the timeline started: start it again here, so that what is kept stays bounded.
      const last = this.photos[this.photos.length - 1];
      this.start = after ?? (last ? cursorOf(last) : null);
      this.photos = [];
      this.fresh = null;
      this.positions.clear();
      this.newer.hidden = false;
      this.viewport.scrollTop = 0;
    }
    for (const photo of page.photos) {
      this.positions.set(photo.photo_id, this.photos.length);
      this.photos.push(photo);
    }
    this.next = page.next;
    this.relayout();
    this.render();
  }

  /// The request for `limit` photos the chips find, after the cursor `after` (null: from the newest).
  photosPath(limit, after) {
    const query = queryOf(this.chips);
    return `/api/photos?limit=${limit}${query ? `&${query}` : ""}${after ? `&after=${encodeURIComponent(after)}` : ""}`;
  }

  /// The months the search finds, for the month chooser and the years' strip.
  async readMonths() {
    const generation = this.generation;
    const query = queryOf(this.chips);
    if (this.smart?.search?.unavailable) { this.total = 0; this.videos = 0; this.renderInfo(); return; }
    let answer;
    try {
      answer = await api(`/api/photos/months${query ? `?${query}` : ""}`);
    } catch {
      return;
    }
    if (generation !== this.generation) return;
    this.total = answer.months.reduce((sum, month) => sum + month.count, 0);
    this.videos = answer.months.reduce((sum, month) => sum + (month.videos ?? 0), 0);
    this.monthChoice.replaceChildren(
      element("option", { value: "", textContent: "Newest" }),
      ...answer.months.map((month) => element("option", { value: month.start, textContent: `${monthLabel(month.month)} (${month.count.toLocaleString("en")})` })));
    this.monthChoice.value = this.start ?? "";
    // The strip: each year once, at its newest month.
    const years = new Map();
    for (const month of answer.months) if (month.month && !years.has(month.month.slice(0, 4))) years.set(month.month.slice(0, 4), month.start);
    this.years.replaceChildren(...[...years].map(([year, start]) => {
      const button = element("button", { type: "button", textContent: year, title: `Go to ${year}` });
      button.addEventListener("click", () => this.jump(start));
      return button;
    }));
    this.renderInfo();
  }

  /// The library changed (from here or elsewhere): once things settle, what
  /// the search finds is read again where it is shown and counted again,
  /// so that a smart album or a search stays current as photos come and go.
  changed() {
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => {
      if (this.root.hidden || state.drag) return;
      this.refresh().catch(() => {});
      this.readMonths();
    }, 400);
  }

  /// Reads again the photos shown, keeping the photo at the view's top
  /// where it is seen, the selection and the photo in focus (those still
  /// found). Up to REFRESHED photos read, all of them are read again; past
  /// that, REFRESHED of them from a little above the view, and the rest as
  /// the view comes near them (``fresh``).
  async refresh() {
    const generation = this.generation;
    while (this.reading) await this.reading.catch(() => {});
    if (generation !== this.generation || this.smart?.search?.unavailable) return;
    const wanted = Math.max(this.photos.length, Math.min(PAGE, this.screenful() * 2));
    const from = Math.max(0, Math.min((this.firstRowInView()?.first ?? 0) - ABOVE, wanted - REFRESHED));
    const after = from === 0 ? this.start : cursorOf(this.photos[from - 1]);
    this.reading = api(this.photosPath(Math.min(REFRESHED, wanted - from), after));
    let page;
    try {
      page = await this.reading;
    } finally {
      this.reading = null;
    }
    if (generation !== this.generation) return;
    // Taken now, not before the request: the person may have scrolled since.
    const anchor = this.topPhoto();
    const before = new Map(this.photos.map((photo) => [photo.photo_id, photo]));
    const merged = mergeWindow(this.photos, from, page.photos, Boolean(page.next));
    this.photos = merged.photos;
    this.positions = new Map(this.photos.map((photo, index) => [photo.photo_id, index]));
    // Photos kept below the page: the cursor after them still reads on.
    if (merged.staleEnd === merged.fresh.to) this.next = page.next;
    this.fresh = merged.fresh.from === 0 && merged.staleEnd === merged.fresh.to ? null : { ...merged.fresh, staleEnd: merged.staleEnd };
    this.selected = new Set([...this.selected].filter((id) => this.positions.has(id)));
    if (!this.positions.has(this.active)) this.active = null;
    // A tile whose albums changed is made again: its label says them.
    for (const photo of page.photos) {
      const old = before.get(photo.photo_id);
      if (old && old.albums.join("\n") !== photo.albums.join("\n")) { this.elements.get(photo.photo_id)?.remove(); this.elements.delete(photo.photo_id); }
    }
    this.relayout();
    if (anchor) {
      const index = this.positions.get(anchor.id) ?? Math.min(anchor.index, this.photos.length - 1);
      const place = this.layout.places[index];
      if (place) this.viewport.scrollTop = Math.max(0, this.layout.rows[place.row].top - anchor.y);
    }
    this.render();
  }

  /// Whether the photos from `first` to `last` (in view) come near photos
  /// read before the last change and not since.
  nearStale(first, last) {
    if (!this.fresh) return false;
    const { from, to, staleEnd } = this.fresh;
    return (from > 0 && first < from + NEAR) || (to < staleEnd && last >= to - NEAR && first < staleEnd);
  }

  /// The first row of photos in view, if any.
  firstRowInView() {
    const { rows } = this.layout;
    const top = this.viewport.scrollTop;
    return rowsBetween(rows, top, top + this.viewport.clientHeight).map((at) => rows[at]).find((each) => each.kind === "tiles");
  }

  /// The photo first seen at the view's top, and how far below the top its row stands.
  topPhoto() {
    const top = this.viewport.scrollTop;
    if (top < 8) return null;   // at the top: what is new above shows
    const row = this.firstRowInView();
    return row ? { id: this.photos[row.first].photo_id, index: row.first, y: row.top - top } : null;
  }

  // MARK: Chips

  addTyped() {
    const made = chipOf(this.field.value, timelineHooks.albums());
    if (!made) return;
    this.field.value = "";
    this.suggestions.replaceChildren();
    say(`Searching: ${made.label}.`);
    this.smart = null;  // a search of one's own now, which may be kept as a smart album
    this.show(withChip(this.chips, made)).catch((error) => say(error.message, true));
  }

  removeChip(index) {
    this.smart = null;
    const [removed] = this.chips.splice(index, 1);
    say(`${removed.label} taken away.`);
    this.show(this.chips).catch((error) => say(error.message, true));
    this.field.focus();
  }

  suggest() {
    const offered = suggestionsFor(this.field.value, timelineHooks.albums());
    this.suggestions.replaceChildren(...offered.map((made) => element("option", { value: suggestionText(made), label: made.label })));
  }

  renderChips() {
    // Photos in no album need no badge saying so.
    this.root.classList.toggle("unfiled-only", this.chips.some((each) => each.kind === "no_album"));
    this.chipList.replaceChildren(...this.chips.map((made, index) => {
      const button = element("button", { type: "button", className: "chip", textContent: made.label });
      button.append(element("span", { className: "chip-remove", textContent: " ✕", ariaHidden: "true" }));
      button.setAttribute("aria-label", `${made.label}: remove this filter`);
      button.addEventListener("click", () => this.removeChip(index));
      return button;
    }));
    this.pane.section.querySelector(".album-choice").title = this.name;
    // A search can be kept as a smart album; a smart album can be made an ordinary one.
    this.root.querySelector(".smart-title").textContent = this.smart ? `✦ ${this.smart.name}: a smart album, always current` : "";
    this.root.querySelector(".smart-title").hidden = !this.smart;
    this.root.querySelector(".freeze").hidden = !this.smart;
    this.root.querySelector(".keep-smart").hidden = Boolean(this.smart) || !this.chips.length;
  }

  renderInfo() {
    const found = this.total === null ? "" : `${contentsText(this.total, this.videos)}${this.chips.length ? " found" : ""}`;
    this.pane.info.textContent = found;
  }

  // MARK: Geometry and drawing

  /// The rows' height: the thumbnail size the zoom sets (a phone's three across are its 110 pixels).
  get target() { return state.tile; }
  /// Photos a screen holds, about: square ones of the target size.
  screenful() {
    const across = Math.max(1, Math.floor((this.viewport.clientWidth || 800) / (this.target + GAP)));
    return Math.ceil((this.viewport.clientHeight || 900) / Math.max(this.target, 40)) * across;
  }

  relayout() {
    if (!this.viewport.clientWidth) return;
    this.layoutKey = `${this.viewport.clientWidth}:${this.target}:${this.photos.length}`;
    this.layout = layOut(this.photos, { width: this.viewport.clientWidth, target: this.target, heading: HEADING, gap: GAP });
    this.canvas.style.height = `${this.layout.height}px`;
  }

  /// Draws the headings and tiles in view (and a little beyond), and reads on near the end.
  render() {
    // The zoom or the width changed since the layout was made: lay out again.
    if (this.layoutKey !== `${this.viewport.clientWidth}:${this.target}:${this.photos.length}`) this.relayout();
    this.renderSelectionBar();
    // A listbox holds options: while nothing is found it is a plain group.
    this.viewport.setAttribute("role", this.photos.length ? "listbox" : "group");
    if (this.photos.length) this.viewport.setAttribute("aria-multiselectable", "true"); else this.viewport.removeAttribute("aria-multiselectable");
    if (!this.photos.length) {
      this.canvas.replaceChildren(element("p", {
        className: "empty",
        textContent: this.reading ? "Looking…"
          : this.smart?.search?.unavailable ? "This smart album looks in an album that is not there for you: it shows nothing."
          : this.smart ? "This smart album shows nothing now: no photo matches its search."
          : this.chips.length ? "No photo matches: take a filter away." : "No photos yet: import some, or add them to an album.",
      }));
      this.elements.clear();
      return;
    }
    this.canvas.querySelector(".empty")?.remove();
    const top = this.viewport.scrollTop;
    const bottom = top + this.viewport.clientHeight;
    const wanted = new Set();
    const { rows, places } = this.layout;
    for (const rowIndex of rowsBetween(rows, top - OVERSCAN, bottom + OVERSCAN)) {
      const row = rows[rowIndex];
      if (row.kind === "heading") {
        const key = `h${row.first}`;
        wanted.add(key);
        let heading = this.elements.get(key);
        if (!heading) {
          // Seen, not read: a listbox holds options only, and each photo's label says its day.
          heading = element("div", { className: "day", textContent: row.label, ariaHidden: "true" });
          this.elements.set(key, heading);
          this.canvas.append(heading);
        }
        heading.style.top = `${row.top}px`;
        continue;
      }
      for (let column = 0; column < row.count; column++) {
        const index = row.first + column;
        const photo = this.photos[index];
        const key = photo.photo_id;
        wanted.add(key);
        const tile = this.elements.get(key) ?? this.makeTile(photo);
        const place = places[index];
        tile.style.left = `${place.left}px`;
        tile.style.top = `${row.top}px`;
        tile.style.width = `${place.width}px`;
        tile.style.height = `${row.height}px`;
        tile.setAttribute("aria-posinset", index + 1);
        tile.setAttribute("aria-setsize", this.total ?? this.photos.length);
        const selected = this.selected.has(key);
        tile.setAttribute("aria-selected", selected);
        tile.classList.toggle("selected", selected);
        tile.classList.toggle("active", this.active === key && document.activeElement === this.viewport);
        tile.classList.toggle("lifted", Boolean(state.drag?.pane === this && state.drag.items.includes(key)));
        const source = thumbnailURL(photo.photo_id, Math.max(place.width, row.height));
        const image = tile.querySelector("img");
        if (image.getAttribute("src") !== source) image.src = source;
      }
    }
    if (this.active !== null && this.elements.has(this.active)) wanted.add(this.active);
    for (const [key, drawn] of this.elements) {
      if (!wanted.has(key)) { drawn.remove(); this.elements.delete(key); }
    }
    const active = this.elements.get(this.active);
    if (active) this.viewport.setAttribute("aria-activedescendant", active.id); else this.viewport.removeAttribute("aria-activedescendant");
    this.viewport.setAttribute("aria-label", `${this.name}, newest first${this.chips.length ? `: ${this.chips.map((each) => each.label).join(", ")}` : ""}`);
    // Read on before the end comes into view.
    if (this.next && !this.reading && bottom + 3 * this.viewport.clientHeight > this.layout.height) this.more().catch(() => {});
    // Photos read before the last change coming into view are read again.
    if (this.fresh && !this.reading && !this.refreshing) {
      const shown = rowsBetween(rows, top, bottom).map((at) => rows[at]).filter((row) => row.kind === "tiles");
      if (shown.length && this.nearStale(shown[0].first, shown[shown.length - 1].first + shown[shown.length - 1].count - 1)) {
        this.refreshing = this.refresh().catch(() => {}).finally(() => { this.refreshing = null; });
      }
    }
  }

  makeTile(photo) {
    const tile = element("div", { className: "tile", id: `timeline-${this.index}-${photo.photo_id}` });
    tile.setAttribute("role", "option");
    tile.dataset.itemId = photo.photo_id;
    const taken = photo.captured_at ? `, taken ${photo.captured_at.slice(0, 10)}` : "";
    const where = photo.albums.length ? `, in ${photo.albums.join(", ")}` : ", in no album";
    const video = isVideo(photo) ? `, ${durationWords(photo.duration)}` : photo.live_photo ? ", Live Photo" : "";
    tile.setAttribute("aria-label", `${photo.file}${video}${taken}${where}`);
    tile.title = `${photo.file}${where}`;
    const image = element("img", { alt: "", decoding: "async", draggable: false });
    image.addEventListener("error", () => tile.classList.add("failed"));
    tile.append(image);
    if (isVideo(photo)) tile.append(videoBadge(photo.duration));
    else if (photo.live_photo) tile.append(liveBadge());
    if (!photo.albums.length) tile.append(element("span", { className: "unfiled", textContent: "no album", ariaHidden: "true" }));
    tile.addEventListener("pointerdown", (event) => timelineHooks.pointerDown?.(event, this, photo.photo_id));
    tile.addEventListener("dblclick", () => timelineHooks.open?.(this, photo.photo_id));
    this.elements.set(photo.photo_id, tile);
    this.canvas.append(tile);
    return tile;
  }

  /// Scrolls just enough for the photo at `index` to be seen whole.
  reveal(index) {
    const place = this.layout.places[index];
    if (!place) return;
    const row = this.layout.rows[place.row];
    // Its day's heading too, when the photo is in the day's first row.
    const previous = this.layout.rows[place.row - 1];
    const top = previous?.kind === "heading" ? previous.top : row.top;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (row.top + row.height > this.viewport.scrollTop + this.viewport.clientHeight) this.viewport.scrollTop = row.top + row.height - this.viewport.clientHeight + GAP;
  }

  // MARK: Keys

  async keyDown(event) {
    const command = event.ctrlKey || event.metaKey;
    const index = Math.max(0, this.indexOf(this.active));
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key) && this.photos.length) {
      event.preventDefault();
      if (event.key === "End") while (this.next) await this.more();
      const next = stepFrom(index, event.key, this.layout, this.photos.length);
      const photo = this.photos[next];
      await this.choose(photo.photo_id, { extend: event.shiftKey });
      this.setActive(photo.photo_id);
      say(`${photo.file}${photo.captured_at ? `, taken ${photo.captured_at.slice(0, 10)}` : ""}${this.selected.size > 1 ? `, ${this.selected.size} selected` : ""}`);
    } else if (event.key === " " && this.active !== null) {
      event.preventDefault();
      this.choose(this.active, { toggle: true });
      say(`${this.selectionWords()} selected.`);
    } else if (event.key.toLowerCase() === "a" && command) {
      event.preventDefault();
      this.selectAll();
    } else if (event.key === "Escape" && this.selected.size) {
      event.preventDefault();
      this.clearSelection();
    } else if (event.key === "Enter" && this.active !== null) {
      event.preventDefault();
      timelineHooks.open?.(this, this.active);
    } else if ((event.key.toLowerCase() === "m" || event.key.toLowerCase() === "a") && !command && this.active !== null) {
      event.preventDefault();
      if (!this.selected.size) this.choose(this.active);
      timelineHooks.addTo?.(this);
    } else if (event.key === "/" ) {
      event.preventDefault();
      this.field.focus();
    }
  }
}
