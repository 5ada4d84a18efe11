// Undo and redo, from this page or from anywhere: the buttons say what
// they would undo or redo now: a person's own latest change, or, for
// the token's holder, the library's latest, whoever made it.

import { api } from "../core/api.js";
import { applyChanges, refused } from "../writes/live.js";
import { say, state } from "../core/state.js";

let undoButton;
let redoButton;

export async function refreshHistory() {
  const history = await api("/api/history?limit=1");
  for (const [button, entry, verb] of [[undoButton, history.next_undo, "Undo"], [redoButton, history.next_redo, "Redo"]]) {
    button.disabled = !entry;
    button.title = entry ? `${verb}: ${entry.description} (by ${entry.made_by?.name ?? "cli"})` : `Nothing to ${verb.toLowerCase()}`;
    button.setAttribute("aria-label", button.title);
  }
}

async function replay(undoing) {
  try {
    const answer = await api(undoing ? "/api/undo" : "/api/redo", { method: "POST" });
    // The album list follows when the event stream announces the change.
    await applyChanges(answer.changes);
    say(`${undoing ? "Undone" : "Redone"}: ${answer.entry.description} (made by ${answer.entry.made_by?.name ?? "cli"}).`);
  } catch (error) {
    await refused(error, undoing ? "Not undone" : "Not redone");
    refreshHistory().catch(() => {});
  }
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  undoButton = document.getElementById("undo-button");
  redoButton = document.getElementById("redo-button");
  undoButton.addEventListener("click", () => replay(true));
  redoButton.addEventListener("click", () => replay(false));
  document.addEventListener("keydown", (event) => {
    const key = event.key.toLowerCase();
    if (!(event.ctrlKey || event.metaKey) || event.altKey || (key !== "z" && key !== "y")) return;
    if (state.drag || state.lift || document.querySelector("dialog[open]") || event.target.closest?.("input")) return;
    event.preventDefault();
    replay(key === "z" && !event.shiftKey);
  });
}
