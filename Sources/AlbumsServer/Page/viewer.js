// The viewer: one photo large, the previous and next in album order
// (arrows, buttons, a swipe), the facts beside it, and the album as a
// slideshow. Escape goes back to the grid, on the photo last seen.

import { thumbnailURL } from "./api.js";
import { element, plural, say } from "./state.js";

const dialog = document.getElementById("viewer");
const image = document.getElementById("viewer-image");
const title = document.getElementById("viewer-title");
const where = document.getElementById("viewer-position");
const facts = document.getElementById("viewer-facts");
const factsButton = document.getElementById("viewer-facts-button");
const playButton = document.getElementById("viewer-play");
const interval = document.getElementById("viewer-interval");
const stage = dialog.querySelector(".viewer-stage");

let viewing = null;   // { pane, itemId }
let timer = null;

/// The photos of the pane, in album order (placeholders have nothing to show yet).
const photos = (pane) => pane.items.filter((item) => item.photo_id !== null);

/// The size to ask for: the stage's longer side in device pixels (the server caps it at 2048).
const displaySize = () => Math.max(stage.clientWidth, stage.clientHeight, 320);

export function openViewer(pane, itemId, { facts: showFacts = false } = {}) {
  const item = pane.items[pane.indexOf(itemId)];
  if (!item) return;
  if (item.photo_id === null) { say(`${(item.source ?? "").split("/").pop()} is still loading.`); return; }
  viewing = { pane, itemId };
  setFactsShown(showFacts || factsButton.getAttribute("aria-pressed") === "true");
  if (!dialog.open) dialog.showModal();
  show();
  stage.focus({ preventScroll: true });
}

/// Plays the album from the photo in focus (or the first).
export function startSlideshow(pane) {
  const list = photos(pane);
  if (!list.length) { say(`${pane.name ?? "This album"} has no photos to show.`); return; }
  const active = pane.items[pane.indexOf(pane.active)];
  openViewer(pane, active?.photo_id ? active.item_id : list[0].item_id);
  play(true);
}

function show() {
  const { pane, itemId } = viewing;
  const list = photos(pane);
  const index = list.findIndex((item) => item.item_id === itemId);
  if (index < 0) { close(); return; }
  const item = list[index];
  const size = displaySize();
  image.src = thumbnailURL(item.photo_id, size);
  image.alt = item.file;
  title.textContent = item.file;
  where.textContent = `${index + 1} of ${list.length} · ${pane.name}`;
  document.getElementById("viewer-previous").disabled = index === 0;
  document.getElementById("viewer-next").disabled = index === list.length - 1;
  // The next photo is fetched while this one is looked at.
  const next = list[index + 1];
  if (next) new Image().src = thumbnailURL(next.photo_id, size);
  facts.replaceChildren(...factsOf(item, pane).flatMap(([term, value]) => [
    element("dt", { textContent: term }), element("dd", { textContent: value })]));
  if (!timer) say(`${item.file}, ${index + 1} of ${list.length}${item.captured_at ? `, taken ${humanDate(item.captured_at)}` : ""}.`);
}

const humanDate = (text) => {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return text;
  // A capture time without a zone is the camera's clock: shown as written.
  return /[zZ]|[+-]\d\d:?\d\d$/.test(text)
    ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
    : text.replace("T", " ").slice(0, 16);
};

function factsOf(item, pane) {
  const orientation = { 2: "mirrored", 3: "upside down", 4: "upside down, mirrored", 5: "on its side, mirrored", 6: "turned right", 7: "on its side, mirrored", 8: "turned left" }[item.orientation];
  return [
    ["Name", item.file],
    ["Taken", item.captured_at ? humanDate(item.captured_at) : "unknown"],
    ["Size", item.display_width ? `${item.display_width} × ${item.display_height} pixels` : "unknown"],
    ["Stored as", item.pixel_width ? `${item.pixel_width} × ${item.pixel_height}, ${orientation ?? "upright"}` : null],
    ["File size", item.byte_count ? `${(item.byte_count / 1048576).toFixed(2)} MiB` : null],
    ["Type", item.media_type],
    ["Position", `${item.position} of ${plural(pane.items.length, "item")} in ${pane.name}`],
    ["Photo id", String(item.photo_id)],
    ["File", item.source],
    ["SHA-256", item.sha256],
  ].filter(([, value]) => value !== null && value !== undefined);
}

const currentIndex = () => photos(viewing.pane).findIndex((item) => item.item_id === viewing.itemId);

/// Shows the photo at `index` of the album's photos; false past either end.
function goTo(index) {
  const list = photos(viewing.pane);
  if (index < 0 || index >= list.length) return false;
  viewing.itemId = list[index].item_id;
  show();
  return true;
}

const go = (step) => goTo(currentIndex() + step);

function play(on) {
  clearInterval(timer);
  timer = null;
  playButton.setAttribute("aria-pressed", String(on));
  playButton.textContent = on ? "❚❚ Pause" : "▶ Slideshow";
  dialog.classList.toggle("playing", on);
  if (!on) return;
  say(`Slideshow of ${viewing.pane.name}, a photo every ${interval.value} seconds. Space pauses.`);
  timer = setInterval(() => {
    if (!go(1)) { play(false); say("End of the album: the slideshow stopped."); }
  }, Number(interval.value) * 1000);
}

function setFactsShown(shown) {
  factsButton.setAttribute("aria-pressed", String(shown));
  facts.hidden = !shown;
  dialog.classList.toggle("with-facts", shown);
}

function close() {
  if (dialog.open) dialog.close();
}

dialog.addEventListener("close", () => {
  play(false);
  if (!viewing) return;
  const { pane, itemId } = viewing;
  viewing = null;
  image.removeAttribute("src");
  // Back on the grid where the viewer left off.
  if (pane.indexOf(itemId) >= 0) {
    pane.choose(itemId);
    pane.setActive(itemId);
  }
  pane.viewport.focus({ preventScroll: true });
});

dialog.addEventListener("keydown", (event) => {
  if (!viewing || event.target === interval) return;
  const step = { ArrowRight: 1, ArrowLeft: -1, PageDown: 1, PageUp: -1 }[event.key];
  if (step) { event.preventDefault(); go(step); }
  else if (event.key === "Home") { event.preventDefault(); goTo(0); }
  else if (event.key === "End") { event.preventDefault(); goTo(photos(viewing.pane).length - 1); }
  else if (event.key === " " && !event.target.closest("button")) { event.preventDefault(); play(!timer); }
  else if (event.key.toLowerCase() === "i") setFactsShown(facts.hidden);
});

document.getElementById("viewer-previous").addEventListener("click", () => go(-1));
document.getElementById("viewer-next").addEventListener("click", () => go(1));
document.getElementById("viewer-close").addEventListener("click", close);
playButton.addEventListener("click", () => play(!timer));
interval.addEventListener("change", () => { if (timer) play(true); });
factsButton.addEventListener("click", () => setFactsShown(facts.hidden));

// A swipe across the photo goes to the next (leftwards) or the previous one.
let swipe = null;
stage.addEventListener("pointerdown", (event) => { if (event.pointerType !== "mouse") swipe = { x: event.clientX, y: event.clientY }; });
stage.addEventListener("pointerup", (event) => {
  if (!swipe) return;
  const dx = event.clientX - swipe.x;
  const dy = event.clientY - swipe.y;
  swipe = null;
  if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? 1 : -1);
});
stage.addEventListener("pointercancel", () => { swipe = null; });
