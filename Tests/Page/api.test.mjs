// The page's words after the server's facts (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { propose, refusal, withPageWords } from "../../Sources/AlbumsServer/Page/organizer/core/api.js";

describe("refusals in the page's words", () => {
  it("a locked album: the server's facts, then where to unlock it on the page", () => {
    const error = refusal(422, "Unprocessable Content", { error: { code: "album_locked", message: "album 'Vault' is locked" } });
    assert.equal(error.message, "album 'Vault' is locked; unlock it from the album menu (⋯) first");
    assert.equal(error.code, "album_locked");
    assert.equal(error.status, 422);
  });

  it("a code the page has nothing to add to keeps the server's message as it is", () => {
    assert.equal(withPageWords({ code: "album_not_found", message: "no album named 'X'" }), "no album named 'X'");
    assert.equal(refusal(502, "Bad Gateway", {}).message, "502 Bad Gateway");
  });

  it("no CLI words reach the page: the server's message carries none, and the page adds none", () => {
    for (const code of ["album_locked", "folder_locked", "album_has_pending_loads", "placeholder_not_allowed", "folder_not_empty", "revision_mismatch", "nothing_to_undo"]) {
      const words = withPageWords({ code, message: "facts" });
      assert.doesNotMatch(words, /albums [a-z]+ |--[a-z]/, code);
    }
  });

  it("a proposal's reason gets the same words", async () => {
    globalThis.fetch = async () => ({
      ok: true, status: 200, statusText: "OK",
      json: async () => ({ allowed: false, verdict: "forbidden", reason: { code: "album_locked", message: "album 'Vault' is locked" } }),
    });
    const proposal = await propose({ op: "move", items: ["Trip:1"], to: "Vault" });
    assert.equal(proposal.reason.message, "album 'Vault' is locked; unlock it from the album menu (⋯) first");
    assert.equal(proposal.reason.code, "album_locked");
  });
});
