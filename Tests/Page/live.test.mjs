// Writes and the change stream on their own (node --test): live.js imports no
// view, so it runs here with fake panes, a fake fetch and a fake EventSource.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { state } from "../../Sources/AlbumsServer/Page/organizer/core/state.js";
import { applyChanges, library, listen, perform } from "../../Sources/AlbumsServer/Page/organizer/writes/live.js";

/// A pane that records what it was asked, and fits only the change sets of its own album.
function fakePane(name) {
  return {
    name, seen: [], reloads: 0,
    async apply(change) { this.seen.push(change.album); return change.album === this.name; },
    async reload() { this.reloads += 1; },
  };
}

class FakeEventSource {
  static last = null;
  constructor(url) { this.url = url; this.listeners = {}; FakeEventSource.last = this; }
  addEventListener(type, listener) { (this.listeners[type] ??= []).push(listener); }
  async emit(type, data) { for (const listener of this.listeners[type] ?? []) await listener({ data: JSON.stringify(data) }); }
}

describe("live.js", () => {
  it("applies change sets to every pane in order; a pane they do not fit reads its album again", async () => {
    const trip = fakePane("Trip");
    const book = fakePane("Book");
    state.panes = [trip, book];
    await Promise.all([applyChanges([{ album: "Trip" }]), applyChanges([{ album: "Book" }])]);
    assert.deepEqual(trip.seen, ["Trip", "Book"]);
    assert.deepEqual(book.seen, ["Trip", "Book"]);
    assert.equal(trip.reloads, 1);
    assert.equal(book.reloads, 1);
  });

  it("a write applies its answer at once and announces nothing itself: the stream does, once", async () => {
    const trip = fakePane("Trip");
    state.panes = [trip];
    let announced = 0;
    library.addEventListener("change", () => { announced += 1; });
    globalThis.fetch = async () => ({ ok: true, status: 200, json: async () => ({ changes: [{ album: "Trip" }] }) });
    const answer = await perform({ op: "move", items: ["Trip:1"], to: "Trip" });
    assert.deepEqual(answer.changes, [{ album: "Trip" }]);
    assert.deepEqual(trip.seen, ["Trip"]);
    assert.equal(announced, 0);

    globalThis.EventSource = FakeEventSource;
    listen();
    assert.equal(FakeEventSource.last.url, "/api/events");
    await FakeEventSource.last.emit("change", { sequence: 7, follows_a_gap: false, operations: [[{ album: "Trip" }]] });
    assert.deepEqual(trip.seen, ["Trip", "Trip"]);
    assert.equal(announced, 1);
    // After a gap, the panes read their albums again rather than replay.
    await FakeEventSource.last.emit("change", { sequence: 9, follows_a_gap: true, operations: [] });
    assert.equal(trip.reloads, 1);
    assert.equal(announced, 2);
  });
});

describe("live.js and rights", () => {
  it("a change of rights reads every pane again and announces it; a stream the server refuses announces its end", async () => {
    const trip = fakePane("Trip");
    state.panes = [trip];
    const heard = [];
    for (const type of ["change", "rights", "closed"]) library.addEventListener(type, () => heard.push(type));
    globalThis.EventSource = FakeEventSource;
    listen();
    const events = FakeEventSource.last;
    await events.emit("change", { sequence: 3, follows_a_gap: false, rights_changed: true, operations: [] });
    assert.equal(trip.reloads, 1);
    assert.deepEqual(heard, ["rights", "change"]);
    events.readyState = 2;
    await events.emit("error", {});
    assert.deepEqual(heard, ["rights", "change", "closed"]);
  });
});
