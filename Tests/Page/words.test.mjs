// Counts in words (common/words.js), as the album list, the album's header
// and a share link's page say what an album holds.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contentsText, plural } from "../../Sources/AlbumsServer/Page/common/words.js";

describe("what an album holds, in words", () => {
  it("says photos alone, videos alone, or both, each counted in the singular or plural", () => {
    assert.equal(contentsText(12), "12 photos");
    assert.equal(contentsText(12, 0), "12 photos");
    assert.equal(contentsText(1, 0), "1 photo");
    assert.equal(contentsText(0, 0), "0 photos");
    assert.equal(contentsText(12, 2), "10 photos, 2 videos");
    assert.equal(contentsText(2, 1), "1 photo, 1 video");
    assert.equal(contentsText(3, 3), "3 videos");
    assert.equal(contentsText(1, 1), "1 video");
    assert.equal(contentsText(12345, 45), "12,300 photos, 45 videos");
  });

  it("takes a count of videos that is missing or past the items as what it can be", () => {
    assert.equal(contentsText(4, undefined), "4 photos", "an older server sends no count of videos");
    assert.equal(contentsText(2, 5), "2 videos");
    assert.equal(contentsText(2, -1), "2 photos");
  });

  it("plural counts in English digits with separators", () => {
    assert.equal(plural(1, "album"), "1 album");
    assert.equal(plural(2000, "album"), "2,000 albums");
  });
});
