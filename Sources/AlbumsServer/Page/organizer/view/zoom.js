// Zoom: the slider, Ctrl+wheel (and trackpad pinches, which arrive as
// Ctrl+wheel), two fingers; the photo under the pointer stays put.

import { say, state } from "../core/state.js";

let slider;

/// Sets the tile size, keeping the item at (x, y) in `around` under (x, y).
export function zoomTo(size, around, x, y, { quiet = false } = {}) {
  const tile = Math.round(Math.max(Number(slider.min), Math.min(Number(slider.max), size)));
  if (tile === state.tile) return;
  const anchors = state.panes.filter((pane) => pane.count && pane.viewport.clientHeight).map((pane) => {
    const box = pane.viewport.getBoundingClientRect();
    const px = pane === around && x !== undefined ? x : box.left + box.width / 2;
    const py = pane === around && y !== undefined ? y : box.top + box.height / 2;
    const index = pane.indexAt(px, py);
    const frame = pane.frame(index);
    // Where the pointer is inside that tile, as a fraction, so it stays on the same spot of the photo.
    const fraction = Math.max(0, Math.min(1, (py - box.top + pane.contentTop - frame.top) / frame.height));
    return { pane, index, offset: py - box.top, fraction };
  });
  state.tile = tile;
  slider.value = tile;
  document.documentElement.style.setProperty("--tile", `${tile}px`);
  for (const { pane, index, offset, fraction } of anchors) {
    pane.keepInView(index, fraction, offset);
    pane.render();
  }
  for (const pane of state.panes) if (!anchors.some((anchor) => anchor.pane === pane)) pane.render();
  if (!quiet) say(`Thumbnails ${tile} pixels.`);
}

export const zoomBy = (delta, pane) => zoomTo(state.tile + delta, pane);

/// Two fingers on a pane zoom it around their midpoint.
export function pinchToZoom(pane) {
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

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  slider = document.getElementById("zoom");
  slider.addEventListener("input", () => zoomTo(Number(slider.value)));
  document.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    const section = event.target.closest?.(".pane");
    const pane = section ? state.panes[Number(section.dataset.pane)] : null;
    zoomTo(state.tile * Math.exp(-event.deltaY / 300), pane, event.clientX, event.clientY);
  }, { passive: false });
}
