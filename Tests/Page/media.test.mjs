// A video's length as the tiles and the viewer show it (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { durationText, durationWords, isVideo } from "../../Sources/AlbumsServer/Page/organizer/core/state.js";

describe("a video's length", () => {
  it("reads as a player shows it, rounded to the second", () => {
    assert.equal(durationText(0), "0:00");
    assert.equal(durationText(1.4), "0:01");
    assert.equal(durationText(7.5), "0:08");
    assert.equal(durationText(59.6), "1:00");
    assert.equal(durationText(750), "12:30");
    assert.equal(durationText(3723), "1:02:03");
  });

  it("says nothing for what is no length", () => {
    for (const value of [null, undefined, -1, Number.NaN, Number.POSITIVE_INFINITY, "7"]) assert.equal(durationText(value), "");
  });

  it("is said in words for a screen reader", () => {
    assert.equal(durationWords(65), "video, 1 minute 5 seconds");
    assert.equal(durationWords(3600), "video, 1 hour");
    assert.equal(durationWords(0.2), "video, 0 seconds");
    assert.equal(durationWords(null), "video");
  });

  it("belongs to videos alone, told by their media type", () => {
    assert.equal(isVideo({ media_type: "video/quicktime" }), true);
    assert.equal(isVideo({ media_type: "image/jpeg" }), false);
    assert.equal(isVideo({ media_type: null }), false);
    assert.equal(isVideo(undefined), false);
  });
});
