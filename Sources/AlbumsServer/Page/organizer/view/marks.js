// What is written on the item the viewer shows: its caption under the
// photo, and a bar to mark it (a heart, stars, rejected) and to write its
// title, caption and keywords. Each change is one `mark` operation: the
// pane reads the item again from its change set, and undo takes it back.
// Keys (in the viewer): F the heart, 1–5 the stars, 0 no stars, X rejected.

import { propose } from "../core/api.js";
import { element, say } from "../core/state.js";
import { perform, refused } from "../writes/live.js";

let bar;
let caption;
let heart;
let stars;
let reject;
let editButton;
let form;
let titleField;
let captionField;
let keywordsField;
let keywordList;

let shown = null;   // { pane, item }
let editable = false;
let changed = () => {};   // the viewer's: shows the item's title

/// The operation that writes `fields` on the item shown, named by its
/// photo in its album (a position could move under a concurrent change).
const markOf = (fields) => ({ op: "mark", items: [`id:${shown.item.photo_id}`], from: shown.pane.name, ...fields });

/// Shows `item` of `pane`'s album (null: nothing), and asks once per album
/// whether its reader may write on it: a viewer sees the marks, not the buttons.
export async function showMarks(pane, item) {
  const album = shown?.pane.name;
  shown = item ? { pane, item } : null;
  form.hidden = true;
  if (!item) { bar.hidden = true; caption.hidden = true; return; }
  render();
  if (album !== pane.name) {
    editable = false;
    setEditable();
    const proposal = await propose(markOf({ favorite: Boolean(item.favorite) })).catch(() => null);
    if (shown?.pane.name === pane.name) { editable = Boolean(proposal?.allowed); setEditable(); }
  }
}

function render() {
  const { item } = shown;
  caption.textContent = item.caption ?? "";
  caption.hidden = !item.caption;
  bar.hidden = false;
  heart.setAttribute("aria-pressed", String(Boolean(item.favorite)));
  heart.textContent = item.favorite ? "♥" : "♡";
  const rating = typeof item.rating === "number" ? item.rating : 0;
  for (const [index, star] of stars.entries()) {
    star.setAttribute("aria-pressed", String(rating === index + 1));
    star.textContent = index < rating ? "★" : "☆";
  }
  reject.setAttribute("aria-pressed", String(item.rating === "rejected"));
  keywordList.replaceChildren(...(item.keywords ?? []).map((keyword) => element("li", { textContent: keyword })));
  keywordList.hidden = !(item.keywords ?? []).length;
}

function setEditable() {
  for (const control of [heart, ...stars, reject, editButton]) control.disabled = !editable;
  bar.classList.toggle("read-only", !editable);
}

/// Writes `fields` on the item shown, then shows it as the pane read it again.
async function write(fields, words) {
  if (!shown || !editable) return;
  const { pane, item } = shown;
  try {
    await perform(markOf(fields));
    const now = pane.itemAt(pane.indexOf(item.item_id));
    if (now && shown?.item.item_id === item.item_id) { shown.item = now; render(); changed(now); }
    say(words);
  } catch (error) {
    await refused(error, "Not marked");
  }
}

export const toggleFavorite = () => shown && write({ favorite: !shown.item.favorite }, shown.item.favorite ? "No longer a favourite." : "Marked a favourite.");

/// Gives the item `count` stars (0: none); its own count again takes them away.
export function rate(count) {
  if (!shown) return;
  const same = shown.item.rating === count;
  write({ rating: count === 0 || same ? null : count }, count === 0 || same ? "No stars." : `${count} star${count === 1 ? "" : "s"}.`);
}

export const toggleRejected = () => shown && write(
  { rating: shown.item.rating === "rejected" ? null : "rejected" }, shown.item.rating === "rejected" ? "No longer rejected." : "Rejected.");

/// Whether the viewer's key was one of the marks' (and was handled).
export function handleKey(event) {
  if (!shown || !editable || event.ctrlKey || event.metaKey || event.altKey) return false;
  if (event.target.closest?.("input, textarea, select, form")) return false;
  const key = event.key.toLowerCase();
  if (key === "f") toggleFavorite();
  else if (/^[0-5]$/.test(key)) rate(Number(key));
  else if (key === "x") toggleRejected();
  else return false;
  event.preventDefault();
  return true;
}

function openForm() {
  if (!shown || !editable) return;
  titleField.value = shown.item.title ?? "";
  captionField.value = shown.item.caption ?? "";
  keywordsField.value = (shown.item.keywords ?? []).join(", ");
  form.hidden = false;
  captionField.focus();
}

async function saveForm(event) {
  event.preventDefault();
  if (!shown) return;
  const typed = keywordsField.value.split(",").map((each) => each.trim()).filter(Boolean);
  const had = shown.item.keywords ?? [];
  const fold = (text) => text.normalize("NFC").toLowerCase();
  const removed = had.filter((old) => !typed.some((each) => fold(each) === fold(old)));
  const added = typed.filter((each) => !had.some((old) => fold(old) === fold(each)));
  form.hidden = true;
  await write(
    { title: titleField.value, caption: captionField.value, add_keywords: added, remove_keywords: removed },
    "Words saved.");
  editButton.focus();
}

/// Looks the viewer's marks up and listens on them; viewer.js calls it
/// from its init, with what to do when the item shown has new words.
export function init({ onChange } = {}) {
  if (onChange) changed = onChange;
  bar = document.getElementById("viewer-marks");
  caption = document.getElementById("viewer-caption");
  heart = document.getElementById("viewer-favorite");
  stars = [...bar.querySelectorAll(".star")];
  reject = document.getElementById("viewer-reject");
  editButton = document.getElementById("viewer-edit-words");
  form = document.getElementById("viewer-words");
  titleField = document.getElementById("viewer-words-title");
  captionField = document.getElementById("viewer-words-caption");
  keywordsField = document.getElementById("viewer-words-keywords");
  keywordList = document.getElementById("viewer-keywords");
  heart.addEventListener("click", toggleFavorite);
  for (const [index, star] of stars.entries()) star.addEventListener("click", () => rate(index + 1));
  reject.addEventListener("click", toggleRejected);
  editButton.addEventListener("click", openForm);
  form.addEventListener("submit", saveForm);
  document.getElementById("viewer-words-cancel").addEventListener("click", () => { form.hidden = true; editButton.focus(); });
  // Escape in the form closes the form, not the viewer.
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); form.hidden = true; editButton.focus(); }
  });
}
