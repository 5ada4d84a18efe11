// Writes and what follows them: every committed change, from this page or
// any other writer, reaches the panes as change sets, without a reload.
// This module announces; it never calls a view: the views that show more
// than the panes (the album list, the history's buttons) listen to
// `library` (app.js wires them).

import { performOperation } from "../core/api.js";
import { say, said, state } from "../core/state.js";

let applying = Promise.resolve();

/// Fires `change` once for each committed transaction the event stream
/// brings (this page's own writes included; the event's `detail` is the
/// change), and once when the stream comes back after a loss (no detail):
/// what the library holds may have changed. Fires
/// `rights` when who may see or do what changed (a role given or taken,
/// admin given or taken): what this page shows is read again. Fires
/// `closed` when the server ends the stream for good (signed out, disabled,
/// removed, a new password): the page goes to signing in.
export const library = new EventTarget();
const announce = (type = "change", change = null) => library.dispatchEvent(new CustomEvent(type, { detail: change }));

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
/// brings the same change sets later; they are then seen already, and the
/// stream's announcement is the one that tells the other views).
export async function perform(operation) {
  const answer = await performOperation(operation);
  await applyChanges(answer.changes);
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
    if (change.follows_a_gap || change.rights_changed) {
      // Rights changed: an album may have appeared or gone, so change sets
      // are not enough; each pane reads its album again.
      await reloadPanes();
      if (change.rights_changed) announce("rights");
    } else {
      for (const changes of change.operations) await applyChanges(changes);
    }
    announce("change", change);
  });
  events.addEventListener("error", () => {
    // The server refused the stream when it came back: its sign-in opens nothing any more.
    if (events.readyState === 2) return announce("closed");
    say("Lost the server; reconnecting…", true);
  });
  events.addEventListener("open", () => {
    if (!said().startsWith("Lost the server")) return;
    say("Connected again.");
    reloadPanes().then(announce).catch(() => {});
  });
}
