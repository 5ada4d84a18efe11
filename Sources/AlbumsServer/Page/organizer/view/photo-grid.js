// What an album's pane and the library's timeline are alike: a grid of
// photos a person selects (click, Ctrl-click, Shift-click, select all),
// walks with one photo in focus, and acts on. Written once here; each kind
// says only how it reads what it shows (an album's window of items, the
// pages a search finds) and how it draws it.
//
// A grid's kind gives: `count` (photos read or known), `itemAt(index)` (as
// an album's item reads: `item_id` and the photo's facts), `indexOf(id)`,
// `ids`, `name`, `reveal(index)`, `render()`, `extent` (how many the grid
// holds, read or not), `covers(from, to)` and `readRange(from, to)` (whether
// the photos a Shift range or select all reaches are read, and reading
// them), and the elements `viewport`, `selectionBar` and `holder` (which
// shows that a selection is made).

import { choose } from "../model/selection.js";
import { contentsText, durationText, element, isVideo, plural, say, state } from "../core/state.js";

/// A video tile's mark: a play sign and its length, seen even where its frame is not.
export function videoBadge(seconds) {
  const badge = element("span", { className: "video-badge", textContent: `▶ ${durationText(seconds)}`.trim() });
  badge.setAttribute("aria-hidden", "true");
  return badge;
}

/// A Live Photo tile's mark: the still moves when it is opened and pressed.
export function liveBadge() {
  const badge = element("span", { className: "video-badge live-badge", textContent: "◎ LIVE" });
  badge.setAttribute("aria-hidden", "true");
  return badge;
}

/// Selections reach across unread photos by reading them, up to this many.
export const LARGEST_SELECTION = 20_000;

export class PhotoGrid {
  constructor(index) {
    this.index = index;
    this.selected = new Set();   // ids, in the order chosen
    this.active = null;          // the id keyboard focus is on
    this.anchor = null;          // where a Shift selection started
  }

  /// Every grid of the page: the panes and the timelines shown in them.
  static all() {
    return state.panes.flatMap((pane) => (pane.timeline ? [pane, pane.timeline] : [pane]));
  }

  /// The selected ids in the grid's order.
  selectedIds() { return this.ids.filter((id) => this.selected.has(id)); }

  /// Chooses `id` as a click would (modifiers: toggle, extend) and clears
  /// every other grid's selection. A Shift range across photos not read
  /// yet reads them first, up to LARGEST_SELECTION.
  async choose(id, { toggle = false, extend = false } = {}) {
    for (const other of PhotoGrid.all()) if (other !== this && other.selected.size) { other.selected.clear(); other.render(); }
    const ranging = extend && this.anchor !== null && this.indexOf(this.anchor) >= 0;
    if (ranging) {
      const [from, to] = [this.indexOf(this.anchor), this.indexOf(id)].sort((a, b) => a - b);
      if (to - from > LARGEST_SELECTION) { say(`A range selects at most ${LARGEST_SELECTION.toLocaleString("en")} photos at a time.`, true); return; }
      await this.readRange(from, to + 1);
    }
    const ids = ranging ? this.rangeIds(id) : [id];
    ({ selected: this.selected, anchor: this.anchor } = choose({ selected: this.selected, anchor: this.anchor, ids, id, toggle, extend }));
    this.active = id;
    state.focused = this.index;
    this.render();
  }

  /// The ids a Shift range takes: from the anchor to `id`, in the grid's order.
  rangeIds(id) {
    const ends = [this.indexOf(this.anchor), this.indexOf(id)].filter((index) => index >= 0);
    if (ends.length < 2) return [id];
    const [from, to] = ends.sort((a, b) => a - b);
    const ids = [];
    for (let index = from; index <= to; index++) { const item = this.itemAt(index); if (item) ids.push(item.item_id); }
    return ids;
  }

  /// Every photo of the grid, read first (up to LARGEST_SELECTION).
  async selectAll() {
    if (this.extent > LARGEST_SELECTION) {
      say(`Select all works up to ${LARGEST_SELECTION.toLocaleString("en")} photos; ${this.name} has ${this.extent.toLocaleString("en")}. Shift-click selects a range.`, true);
      return;
    }
    if (!this.covers(0, this.extent)) say(`Reading ${plural(this.extent, "photo")}…`);
    await this.readRange(0, this.extent);
    this.selected = new Set(this.ids);
    this.render();
    say(`${this.selectionWords()} selected in ${this.name}.`);
  }

  clearSelection() {
    if (!this.selected.size) return;
    this.selected.clear();
    this.render();
    say("Selection cleared.");
  }

  /// Puts keyboard focus on `id`, scrolled into view unless told not to.
  setActive(id, { scroll = true } = {}) {
    this.active = id;
    if (scroll) this.reveal(this.indexOf(id));
    this.render();
  }

  /// What is selected, in words: "3 photos", "2 photos, 1 video".
  selectionWords() { return this.wordsFor(this.selected); }

  /// What the items `ids` (an array or a set) are, in words: "3 photos",
  /// "2 photos, 1 video"; an item not read yet counts as a photo.
  wordsFor(ids) {
    // Asked at every render: a look at each one's media type, no copy of it.
    let videos = 0;
    for (const id of ids) if (this.isVideoAt(this.indexOf(id))) videos += 1;
    return contentsText(ids.length ?? ids.size, videos);
  }

  /// Whether the photo at `index` is a video (false while it is not read).
  isVideoAt(index) { return isVideo(this.itemAt(index)); }

  renderSelectionBar() {
    const count = this.selected.size;
    this.selectionBar.hidden = count === 0;
    this.holder.classList.toggle("selecting", count > 0);
    this.selectionBar.querySelector(".selection-count").textContent = `${this.selectionWords()} selected`;
  }
}
