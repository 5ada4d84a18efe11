// Photos from outside the page: dropped from the desktop, or chosen with
// the file (or folder) picker. Placeholders stand at the slot at once,
// each with its progress while its bytes are sent; the server's own
// placeholders replace them, and become photos as their loads commit.
// Cancelling an upload keeps nothing of it.

import { refusal } from "../core/api.js";
import { refused, reloadPanes } from "../writes/live.js";
import { EDGE, contentsText, element, plural, say } from "../core/state.js";

const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");

/// What an import can take (the server sniffs the bytes again; this only
/// keeps a folder's other files from being sent).
const looksLikePhoto = (file) => file.type.startsWith("image/") || /\.(jpe?g|png|gif|webp|hei[cf]|avif|tiff?)$/i.test(file.name);

/// Files dropped on a pane land at the slot under the pointer.
export function acceptFiles(pane) {
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
    uploadInto(pane, [...event.dataTransfer.files], pane.slotAt(event.clientX, event.clientY));
  });
}

/// Files dropped on an album of the list go at its end.
export function acceptFilesInto(entry, name) {
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
    send({ album: name, files: [...event.dataTransfer.files], at: null, revision: null }).catch(() => {});
  });
}

let picker;
let folderPicker;
let picking = null;

/// Opens the file picker (or the folder picker) for `pane`: the photos
/// land after the photo in focus, or at the end.
export function pickFiles(pane, { folder = false } = {}) {
  if (!pane.album) { say("Choose an album first."); return; }
  picking = pane;
  const input = folder ? folderPicker : picker;
  input.value = "";
  input.click();
}

/// Stands local placeholders at `slot` of `pane` at once, then sends the files.
function uploadInto(pane, files, slot) {
  if (!files.length) return;
  const revision = pane.album.revision;
  const batch = `local-${Date.now()}`;
  const local = files.map((file, index) => ({ item_id: `${batch}-${index}`, placeholder_id: -1, photo_id: null, source: file.name, progress: 0 }));
  pane.window.insert(slot, local);
  pane.uploading += 1;
  pane.render();
  const progress = (fractions) => {
    local.forEach((item, index) => { item.progress = fractions[index]; });
    pane.render();
  };
  send({ album: pane.name, files, at: slot + 1, revision, progress })
    .catch(() => {})
    .finally(() => {
      pane.uploading -= 1;
      if (pane.uploading === 0) reloadPanes([pane]);
    });
}

let uploads;

/// Sends files in one request (XMLHttpRequest: fetch cannot report an
/// upload's progress). The server answers once their placeholders stand.
function send({ album, files, at, revision, progress }) {
  const form = new FormData();
  for (const file of files) form.append("files", file, file.name);
  const query = new URLSearchParams();
  if (at !== null) query.set("at", at);
  if (revision !== null) query.set("expect_revision", revision);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const request = new XMLHttpRequest();
  const bar = element("progress", { max: 1, value: 0 });
  const cancel = element("button", { type: "button", className: "cancel-upload", textContent: "Cancel" });
  const words = contentsText(files.length, files.filter((file) => file.type.startsWith("video/")).length);
  const label = element("span", { textContent: `Sending ${words} to ${album}` });
  const row = element("li", {}, label, bar, cancel);
  uploads.append(row);
  uploads.hidden = false;
  cancel.addEventListener("click", () => request.abort());
  say(`Sending ${plural(files.length, "file")} to ${album}…`);
  return new Promise((resolve, reject) => {
    request.upload.addEventListener("progress", (event) => {
      if (!event.lengthComputable) return;
      // The body is the files in order, plus a little multipart framing.
      const sent = event.loaded / event.total * total;
      bar.value = event.loaded / event.total;
      let before = 0;
      progress?.(files.map((file) => {
        const fraction = file.size ? Math.max(0, Math.min(1, (sent - before) / file.size)) : 1;
        before += file.size;
        return fraction;
      }));
    });
    const done = () => { row.remove(); uploads.hidden = !uploads.children.length; };
    request.addEventListener("load", async () => {
      done();
      let body = {};
      try { body = JSON.parse(request.responseText); } catch { /* not JSON: the status says enough */ }
      if (request.status >= 200 && request.status < 300) {
        const loading = body.placeholders.length === files.length ? words : plural(body.placeholders.length, "item");
        say(`${loading} loading into ${album} from position ${body.position}.`);
        resolve(body);
      } else {
        const error = refusal(request.status, request.statusText, body);
        await refused(error, "Not added");
        reject(error);
      }
    });
    request.addEventListener("abort", () => { done(); say(`Cancelled: nothing of the ${plural(files.length, "file")} was kept.`); reject(new Error("cancelled")); });
    request.addEventListener("error", () => { done(); say("Not added: the server could not be reached.", true); reject(new Error("unreachable")); });
    request.open("POST", `/api/albums/${encodeURIComponent(album)}/files?${query}`);
    request.send(form);
  });
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  picker = document.getElementById("file-picker");
  folderPicker = document.getElementById("folder-picker");
  for (const input of [picker, folderPicker]) {
    input.addEventListener("change", () => {
      const pane = picking;
      const files = [...input.files].filter(looksLikePhoto);
      if (!pane || !files.length) { if (input.files.length) say("None of those files is a photo."); return; }
      const active = pane.indexOf(pane.active);
      uploadInto(pane, files, active >= 0 ? active + 1 : pane.count);
    });
  }
  uploads = document.getElementById("uploads");
}
