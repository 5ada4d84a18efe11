// What the page's modules share: the albums, the panes, what is being
// dragged or lifted, and the status line that speaks to screen readers.

export const state = {
  albums: [],             // as GET /api/albums answers
  tree: null,             // the albums and folders as a tree (tree-model.js)
  panes: [],              // Pane objects, left and right
  focused: 0,             // the pane the last action was in (the one a phone shows)
  tile: 148,              // thumbnail size in CSS pixels
  drag: null,             // a pointer drag of photos in progress
  lift: null,             // a keyboard lift of photos in progress
  touchArmed: false,      // a finger rested on a photo long enough to drag it
};

// Found when first used, not when imported: the modules below the views
// (live.js among them) are imported by node's test runner, which has no page.
const statusLine = () => document.getElementById("status");

/// Says something on the status line, which screen readers announce.
export function say(text, forbidden = false) {
  const line = statusLine();
  line.textContent = text;
  line.classList.toggle("forbidden", forbidden);
}

/// What the status line says now.
export const said = () => statusLine().textContent;

/// Pixels from a scrolling view's edge where a drag (of photos or of
/// files) scrolls it.
export const EDGE = 48;

export { contentsText, plural } from "../../common/words.js";

/// Whether an item or a found photo is a video (its media type says so).
export const isVideo = (photo) => typeof photo?.media_type === "string" && photo.media_type.startsWith("video/");

/// A video's length as a player shows it: 0:07, 12:30, 1:02:03; "" when unknown.
export function durationText(seconds) {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return "";
  const whole = Math.round(seconds);
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const two = (value) => String(value).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

/// A video's length as words for a screen reader: "video, 1 minute 5 seconds".
export function durationWords(seconds) {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return "video";
  const whole = Math.round(seconds);
  const parts = [[Math.floor(whole / 3600), "hour"], [Math.floor(whole / 60) % 60, "minute"], [whole % 60, "second"]]
    .filter(([count], index, all) => count > 0 || (index === all.length - 1 && whole === 0))
    .map(([count, word]) => `${count} ${word}${count === 1 ? "" : "s"}`);
  return `video, ${parts.join(" ")}`;
}

/// The pane a person is working in: the focused one, or the first with an
/// album (or the library) in it.
export function currentPane() {
  if (isNarrow()) return state.panes[0];  // a phone shows one album: the first pane's
  const shows = (pane) => Boolean(pane?.album || pane?.showsLibrary);
  return shows(state.panes[state.focused]) ? state.panes[state.focused] : state.panes.find(shows) ?? state.panes[0];
}

/// Whether the page is laid out for a phone: one album at a time.
export const isNarrow = () => window.matchMedia("(max-width: 699px)").matches;

/// Makes an element with a class and text, the page's usual small build.
export function element(tag, properties = {}, ...children) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}
