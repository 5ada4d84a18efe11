// The viewer: one photo large (a video plays, with its sound and its
// controls), the previous and next in album order (arrows, buttons, a
// swipe), the facts beside it, and the album as a slideshow, in which a
// video plays to its end. Escape goes back to the grid, on the photo last seen.

import { askAgainAfter, playbackPlan, playFromStart, preparingText, unplayableText } from "../../common/video-playback.js";
import { motionURL, originalURL, playback, thumbnailURL } from "../core/api.js";
import { durationText, element, isVideo, plural, say } from "../core/state.js";
import { handleKey as handleMarkKey, init as initMarks, showMarks } from "./marks.js";

let dialog;
let image;
let video;
let videoFailed;
let preparing;
let motion;
let liveButton;
let title;
let where;
let facts;
let factsButton;
let playButton;
let interval;
let stage;

let viewing = null;   // { pane, itemId }
let timer = null;
let playing = false;   // the slideshow
let playbackAsked = 0;   // which video's playback is being asked for: a newer one wins
let unconverted = null;   // why the video shown plays from an original browsers may not play

/// The size to ask for: the stage's longer side in device pixels (the server caps it at 2048).
const displaySize = () => Math.max(stage.clientWidth, stage.clientHeight, 320);

export async function openViewer(pane, itemId, { facts: showFacts = false } = {}) {
  const item = pane.itemAt(pane.indexOf(itemId));
  if (!item) return;
  if (item.photo_id === null) { say(`${item.file ?? (item.source ?? "").split("/").pop()} is still loading.`); return; }
  viewing = { pane, itemId };
  setFactsShown(showFacts || factsButton.getAttribute("aria-pressed") === "true");
  if (!dialog.open) dialog.showModal();
  await show();
  stage.focus({ preventScroll: true });
}

/// Plays the album from the photo in focus (or the first).
export async function startSlideshow(pane) {
  const start = Math.max(0, pane.indexOf(pane.active));
  const first = await photoFrom(pane, start, 1) ?? await photoFrom(pane, start, -1);
  if (!first) { say(`${pane.name ?? "This album"} has no photos to show.`); return; }
  await openViewer(pane, first.item.item_id);
  play(true);
}

/// The first photo from `index` on, going `step` (1 or -1), reading items
/// as it goes: a placeholder has nothing to show yet.
async function photoFrom(pane, index, step) {
  for (let at = index; at >= 0 && at < pane.count; at += step) {
    const item = await pane.load(at);
    if (item?.photo_id !== null && item?.photo_id !== undefined) return { item, index: at };
  }
  return null;
}

async function show() {
  const { pane, itemId } = viewing;
  const index = pane.indexOf(itemId);
  const item = pane.itemAt(index);
  if (!item) { close(); return; }
  const size = displaySize();
  showMedia(item, size);
  if (playing) schedule();
  showWords(item);
  showMarks(pane, item);
  where.textContent = `${(index + 1).toLocaleString("en")} of ${pane.count.toLocaleString("en")} · ${pane.name}`;
  document.getElementById("viewer-previous").disabled = index === 0;
  document.getElementById("viewer-next").disabled = index === pane.count - 1;
  facts.replaceChildren(...factsOf(item, pane).flatMap(([term, value]) => [
    element("dt", { textContent: term }), element("dd", { textContent: value })]));
  if (!playing) say(`${item.file}${isVideo(item) ? `, a video of ${durationText(item.duration) || "unknown length"}` : ""}, ${(index + 1).toLocaleString("en")} of ${pane.count.toLocaleString("en")}${item.captured_at ? `, taken ${humanDate(item.captured_at)}` : ""}.`);
  // The next photo is fetched while this one is looked at.
  const next = await photoFrom(pane, index + 1, 1);
  if (next && viewing?.itemId === itemId) new Image().src = thumbnailURL(next.item.photo_id, size);
}

/// A still as its large thumbnail; a video from what its playback names
/// (its original, or the rendition made where browsers cannot play it; the
/// browser asks for parts of it by Range as it plays and seeks), its frame
/// shown until it plays.
function showMedia(item, size) {
  showLive(item);
  if (isVideo(item)) {
    image.hidden = true;
    image.removeAttribute("src");
    video.hidden = false;
    video.poster = thumbnailURL(item.photo_id, size);
    if (video.dataset.photoId !== String(item.photo_id)) loadVideo(item.photo_id);
  } else {
    stopVideo();
    image.hidden = false;
    image.src = thumbnailURL(item.photo_id, size);
  }
}

/// Asks how the video plays, and plays it from there; while its rendition
/// is made, shows how far it is and asks again.
async function loadVideo(photoId) {
  const asked = ++playbackAsked;
  videoFailed.hidden = true;
  unconverted = null;
  video.pause();
  video.removeAttribute("src");
  video.load();
  video.dataset.photoId = String(photoId);
  while (asked === playbackAsked) {
    const answer = await playback(photoId).catch(() => null);
    if (asked !== playbackAsked) return;
    const plan = playbackPlan(answer, originalURL(photoId));
    if (plan.wait === undefined) {
      showPreparing(null);
      unconverted = plan.note;
      video.src = plan.play;
      if (playing) schedule();
      return;
    }
    showPreparing(plan.wait);
    await new Promise((resolve) => setTimeout(resolve, askAgainAfter));
  }
}

/// The rendition's progress over the video's frame; null hides it.
function showPreparing(percent) {
  const shown = percent !== null;
  if (shown && preparing.hidden) say(preparingText(percent));
  preparing.hidden = !shown;
  // Nothing to play yet: no controls that would do nothing.
  video.controls = !shown;
  if (!shown) return;
  preparing.setAttribute("aria-valuenow", String(percent));
  preparing.style.setProperty("--done", `${percent}%`);
  preparing.querySelector(".words").textContent = preparingText(percent);
}

const isPreparing = () => !preparing.hidden;

function stopVideo() {
  playbackAsked += 1;
  showPreparing(null);
  videoFailed.hidden = true;
  delete video.dataset.photoId;
  video.pause();
  video.hidden = true;
  video.removeAttribute("src");
  video.removeAttribute("poster");
  video.load();
}

const showingVideo = () => !video.hidden;

/// A Live Photo: its button, and its motion ready to play over the still
/// (pressed and held, hovered with a mouse, the button, or L).
function showLive(item) {
  stopMotion();
  const live = Boolean(item.live_photo) && !isVideo(item);
  liveButton.hidden = !live;
  if (live) {
    const source = motionURL(item.photo_id);
    if (motion.getAttribute("src") !== source) motion.src = source;
  } else if (motion.getAttribute("src")) {
    motion.removeAttribute("src");
    motion.load();
  }
}

function playMotion() {
  if (liveButton.hidden) return;
  motion.hidden = false;
  liveButton.setAttribute("aria-pressed", "true");
  playFromStart(motion, stopMotion);
}

function stopMotion() {
  if (!motion) return;
  motion.pause();
  motion.hidden = true;
  liveButton?.setAttribute("aria-pressed", "false");
}

const toggleMotion = () => (motion.hidden ? playMotion() : stopMotion());

/// The item's title over the photo (else its file name), and its words as the photo's text alternative.
function showWords(item) {
  image.alt = item.title ?? item.caption ?? item.file;
  video.setAttribute("aria-label", item.title ?? item.caption ?? item.file);
  title.textContent = item.title ?? item.file;
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
    ["Title", item.title],
    ["Name", item.file],
    ["Keywords", item.keywords?.length ? item.keywords.join(", ") : null],
    ["Taken", item.captured_at ? humanDate(item.captured_at) : "unknown"],
    ["Size", item.display_width ? `${item.display_width} × ${item.display_height} pixels` : "unknown"],
    ["Length", isVideo(item) ? durationText(item.duration) || "unknown" : null],
    ["Stored as", item.pixel_width ? `${item.pixel_width} × ${item.pixel_height}, ${orientation ?? "upright"}` : null],
    ["File size", item.byte_count ? `${(item.byte_count / 1048576).toFixed(2)} MiB` : null],
    ["Type", item.media_type],
    ["Position", `${item.position.toLocaleString("en")} of ${plural(pane.count, "item")} in ${pane.name}`],
    ["Photo id", String(item.photo_id)],
    ["File", item.source],
    ["SHA-256", item.sha256],
  ].filter(([, value]) => value !== null && value !== undefined);
}

/// Shows the next photo from `index` going `step`; false past either end.
async function goFrom(index, step) {
  const found = await photoFrom(viewing.pane, index, step);
  if (!found || !viewing) return false;
  viewing.itemId = found.item.item_id;
  await show();
  return true;
}

const go = (step) => goFrom(viewing.pane.indexOf(viewing.itemId) + step, step);

function play(on) {
  clearTimeout(timer);
  timer = null;
  playing = on;
  playButton.setAttribute("aria-pressed", String(on));
  playButton.textContent = on ? "❚❚ Pause" : "▶ Slideshow";
  dialog.classList.toggle("playing", on);
  if (!on) { if (showingVideo()) video.pause(); return; }
  say(`Slideshow of ${viewing.pane.name}, a photo every ${interval.value} seconds, a video to its end. Space pauses.`);
  schedule();
}

/// The slideshow's next step: a photo's after the interval, a video's
/// once it has played to its end (or, when it cannot play or is still
/// being prepared to, after the interval).
function schedule() {
  clearTimeout(timer);
  timer = null;
  if (!playing) return;
  // Until its rendition is made, a video is shown as a photo is; once made, it plays.
  if (showingVideo() && videoFailed.hidden && !isPreparing()) {
    video.play().catch(() => { timer = setTimeout(advance, Number(interval.value) * 1000); });
    return;
  }
  timer = setTimeout(advance, Number(interval.value) * 1000);
}

async function advance() {
  if (!playing) return;
  // Showing the next one schedules the step after it.
  if (!(await go(1))) { play(false); say("End of the album: the slideshow stopped."); }
}

/// Space on a video: it plays or pauses (in a slideshow, the slideshow does).
function toggleVideo() {
  if (video.paused) video.play().catch(() => {});
  else video.pause();
}

function setFactsShown(shown) {
  factsButton.setAttribute("aria-pressed", String(shown));
  facts.hidden = !shown;
  dialog.classList.toggle("with-facts", shown);
}

function close() {
  if (dialog.open) dialog.close();
}

// A swipe across the photo goes to the next (leftwards) or the previous one.
let swipe = null;

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  dialog = document.getElementById("viewer");
  image = document.getElementById("viewer-image");
  video = document.getElementById("viewer-video");
  motion = document.getElementById("viewer-motion");
  liveButton = document.getElementById("viewer-live");
  videoFailed = document.getElementById("viewer-video-failed");
  preparing = document.getElementById("viewer-preparing");
  title = document.getElementById("viewer-title");
  where = document.getElementById("viewer-position");
  facts = document.getElementById("viewer-facts");
  factsButton = document.getElementById("viewer-facts-button");
  playButton = document.getElementById("viewer-play");
  interval = document.getElementById("viewer-interval");
  stage = dialog.querySelector(".viewer-stage");
  initMarks({ onChange: showWords });
  dialog.addEventListener("close", () => {
    play(false);
    stopVideo();
    stopMotion();
    liveButton.hidden = true;
    motion.removeAttribute("src");
    motion.load();
    if (!viewing) return;
    const { pane, itemId } = viewing;
    viewing = null;
    showMarks(null, null);
    image.removeAttribute("src");
    // Back on the grid where the viewer left off.
    if (pane.indexOf(itemId) >= 0) {
      pane.choose(itemId);
      pane.setActive(itemId);
    }
    pane.viewport.focus({ preventScroll: true });
  });
  dialog.addEventListener("keydown", (event) => {
    if (!viewing || event.target === interval || event.target.closest("input, textarea")) return;
    // The video's own controls take its keys (seeking by arrows, Space) while it has the focus.
    if (event.target === video && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", " ", "Home", "End"].includes(event.key)) return;
    if (handleMarkKey(event)) return;
    const step = { ArrowRight: 1, ArrowLeft: -1, PageDown: 1, PageUp: -1 }[event.key];
    if (step) { event.preventDefault(); go(step); }
    else if (event.key === "Home") { event.preventDefault(); goFrom(0, 1); }
    else if (event.key === "End") { event.preventDefault(); goFrom(viewing.pane.count - 1, -1); }
    else if (event.key === " " && !event.target.closest("button")) { event.preventDefault(); if (showingVideo() && !playing) toggleVideo(); else play(!playing); }
    else if (event.key.toLowerCase() === "k" && showingVideo()) { event.preventDefault(); toggleVideo(); }
    else if (event.key.toLowerCase() === "l" && !liveButton.hidden) { event.preventDefault(); toggleMotion(); }
    else if (event.key.toLowerCase() === "i") setFactsShown(facts.hidden);
  });
  document.getElementById("viewer-previous").addEventListener("click", () => go(-1));
  document.getElementById("viewer-next").addEventListener("click", () => go(1));
  document.getElementById("viewer-close").addEventListener("click", close);
  playButton.addEventListener("click", () => play(!playing));
  interval.addEventListener("change", () => { if (playing) play(true); });
  video.addEventListener("ended", () => { if (playing) advance(); });
  liveButton.addEventListener("click", toggleMotion);
  motion.addEventListener("ended", stopMotion);
  // A mouse over the still plays it; a finger pressed and held on it does too, until it lifts.
  image.addEventListener("pointerenter", (event) => { if (event.pointerType === "mouse") playMotion(); });
  image.addEventListener("pointerleave", (event) => { if (event.pointerType === "mouse") stopMotion(); });
  let press = null;
  image.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" || liveButton.hidden) return;
    press = setTimeout(() => { press = null; playMotion(); }, 300);
  });
  const release = () => { if (press) { clearTimeout(press); press = null; } else if (!motion.hidden) stopMotion(); };
  image.addEventListener("pointerup", release);
  image.addEventListener("pointercancel", release);
  image.addEventListener("contextmenu", (event) => { if (!liveButton.hidden) event.preventDefault(); });
  video.addEventListener("error", () => {
    if (video.hidden || !video.getAttribute("src")) return;
    // Its frame stays; the browser cannot decode this file's codec (HEVC, ProRes, …), and nothing else was made.
    videoFailed.textContent = unplayableText(unconverted);
    videoFailed.hidden = false;
    say(videoFailed.textContent);
    if (playing) schedule();
  });
  factsButton.addEventListener("click", () => setFactsShown(facts.hidden));
  // Not on a video: a finger across it moves along its timeline.
  stage.addEventListener("pointerdown", (event) => { if (event.pointerType !== "mouse" && event.target !== video) swipe = { x: event.clientX, y: event.clientY }; });
  stage.addEventListener("pointerup", (event) => {
    if (!swipe) return;
    const dx = event.clientX - swipe.x;
    const dy = event.clientY - swipe.y;
    swipe = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? 1 : -1);
  });
  stage.addEventListener("pointercancel", () => { swipe = null; });
}
