// Writes and what follows them: every committed change, from this page or
// any other writer, reaches the panes as change sets, without a reload.

import { performOperation } from "./api.js";
import { loadAlbums } from "./albums.js";
import { say, said, state } from "./state.js";

let applying = Promise.resolve();

/// Applies change sets to every pane; a pane they do not fit reads its
/// album again. One at a time, in the order asked: a write's answer and the
/// event stream bring the same change sets, and each must see what the
/// one before it left.
export function applyChanges(changes) {
  const run = applying.then(async () => {
    for (const change of changes) {
      for (const pane of state.panes) {
        if (!(await pane.apply(change))) await pane.reload();
      }
    }
  });
  applying = run.catch(() => {});
  return run;
}

/// Reads the panes' albums again (every pane's by default), in turn with
/// the change sets being applied.
export function reloadPanes(panes = state.panes) {
  const run = applying.then(() => Promise.all(panes.map((pane) => pane.reload())));
  applying = run.catch(() => {});
  return run;
}

/// Performs an operation and applies its answer at once (the event stream
/// brings the same change sets later; they are then seen already).
export async function perform(operation) {
  const answer = await performOperation(operation);
  await applyChanges(answer.changes);
  loadAlbums().catch(() => {});
  return answer;
}

/// A refusal said plainly; a view that was out of date is read again.
export async function refused(error, what) {
  say(`${what}: ${error.message}`, true);
  if (error.status === 409) await reloadPanes();
}

/// Listens to the server's event stream: one event per committed transaction.
export function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("change", async (message) => {
    const change = JSON.parse(message.data);
    if (change.follows_a_gap) {
      await reloadPanes();
    } else {
      for (const changes of change.operations) await applyChanges(changes);
    }
    await loadAlbums();
  });
  events.addEventListener("error", () => say("Lost the server; reconnecting…", true));
  events.addEventListener("open", () => {
    if (!said().startsWith("Lost the server")) return;
    say("Connected again.");
    reloadPanes().then(loadAlbums).catch(() => {});
  });
}
