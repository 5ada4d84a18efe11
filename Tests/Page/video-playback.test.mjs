// How the viewer and a share link's page play a video, from the server's
// answer to GET …/playback (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { playbackPlan, preparingText, unplayableText } from "../../Sources/AlbumsServer/Page/common/video-playback.js";

const original = "/api/photos/7/original";

describe("a video's playback", () => {
  it("plays from the URL the server names", () => {
    assert.deepEqual(playbackPlan({ state: "original", url: original }, original), { play: original, note: null });
    assert.deepEqual(playbackPlan({ state: "rendition", url: "/api/photos/7/rendition" }, original), { play: "/api/photos/7/rendition", note: null });
  });

  it("waits while the rendition is made, saying how far it is", () => {
    assert.deepEqual(playbackPlan({ state: "preparing", progress: 0.429 }, original), { wait: 42 });
    assert.deepEqual(playbackPlan({ state: "preparing", progress: 0 }, original), { wait: 0 });
    for (const progress of [null, undefined, "0.5", Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.deepEqual(playbackPlan({ state: "preparing", progress }, original), { wait: 0 });
    }
    assert.deepEqual(playbackPlan({ state: "preparing", progress: 7 }, original), { wait: 100 });
    assert.deepEqual(playbackPlan({ state: "preparing", progress: -1 }, original), { wait: 0 });
  });

  it("tries the original, with the reason, where nothing else can play", () => {
    const answer = { state: "unconverted", url: original, reason: "FFmpeg's ffmpeg program is not installed" };
    assert.deepEqual(playbackPlan(answer, original), { play: original, note: answer.reason });
    assert.match(unplayableText(answer.reason), /The server made no copy that plays: FFmpeg's ffmpeg program is not installed\.$/);
    assert.doesNotMatch(unplayableText(null), /server/);
  });

  it("plays the original when the answer says nothing usable, and never leaves this server", () => {
    for (const answer of [null, undefined, {}, { state: "original" }, { url: 7 }, { url: "https://elsewhere.example/x.mp4" }, { url: "//elsewhere.example/x" }]) {
      assert.deepEqual(playbackPlan(answer, original), { play: original, note: null });
    }
  });

  it("shows the progress as a whole percentage", () => {
    assert.equal(preparingText(42), "Preparing this video to play in the browser… 42%");
  });
});
