// What the timeline's search field makes of what is typed (node --test).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chipOf, dateOf, queryOf, suggestionsFor, suggestionText, withChip } from "../../Sources/AlbumsServer/Page/organizer/model/search-query.js";

describe("dateOf", () => {
  it("takes the API's forms and words for a month or a day", () => {
    assert.equal(dateOf("2025"), "2025");
    assert.equal(dateOf("2025-07"), "2025-07");
    assert.equal(dateOf("2025-07-01..2025-08-15"), "2025-07-01..2025-08-15");
    assert.equal(dateOf("July 2025"), "2025-07");
    assert.equal(dateOf("jul 2025"), "2025-07");
    assert.equal(dateOf("14 July 2025"), "2025-07-14");
    assert.equal(dateOf("2025 july 4"), "2025-07-04");
  });

  it("refuses what is no date, or no real one", () => {
    for (const text of ["July", "2025-13", "2025-02-30", "30 feb 2025", "ju 2025", "hello 2025", "0000", "1 2 2025"]) {
      assert.equal(dateOf(text), null, text);
    }
  });
});

describe("chipOf", () => {
  it("reads dates, shapes, formats, albums, places and sizes, else a name", () => {
    assert.deepEqual(chipOf("July 2025"), { kind: "taken", value: "2025-07", label: "Taken in July 2025" });
    assert.equal(chipOf("14 July 2025").label, "Taken on 14 July 2025", "a day: on");
    assert.equal(chipOf("2025").label, "Taken in 2025");
    assert.equal(chipOf("2025-07-01..2025-08-15").label, "Taken from 1 July 2025 to 15 August 2025");
    assert.equal(chipOf("Portrait").value, "portrait");
    assert.equal(chipOf("HEIC").kind, "format");
    assert.deepEqual(chipOf("MOV"), { kind: "format", value: "mov", label: "MOV" });
    assert.deepEqual(chipOf("videos"), { kind: "format", value: "video", label: "Videos" }, "every video");
    assert.deepEqual(chipOf("format:Clips"), { kind: "format", value: "video", label: "Videos" });
    assert.deepEqual(chipOf("photos"), { kind: "format", value: "photo", label: "Photos" }, "every still");
    assert.equal(chipOf("no album").kind, "no_album");
    assert.deepEqual([chipOf("with location").value, chipOf("no location").value], ["1", "0"]);
    assert.deepEqual(chipOf("12 MP"), { kind: "min_megapixels", value: "12", label: "12 MP or more" });
    assert.deepEqual(chipOf("camera: X100V"), { kind: "camera", value: "X100V", label: "Camera “X100V”" });
    assert.equal(chipOf("in:trip", ["Trip", "Book"]).value, "Trip", "an album's name in any case");
    assert.deepEqual(chipOf("IMG_20"), { kind: "name", value: "IMG_20", label: "Name has “IMG_20”" });
    assert.equal(chipOf("   "), null);
    assert.equal(chipOf("taken:soon"), null);
    assert.equal(chipOf("camera:"), null);
  });

  it("a suggestion's text makes the chip it stands for", () => {
    for (const text of ["july 2025", "portrait", "heic", "mkv", "videos", "photos", "no album", "with location", "12mp", "camera:sony", "lens:xf", "name:x", "in:Trip"]) {
      const made = chipOf(text, ["Trip"]);
      assert.deepEqual(chipOf(suggestionText(made), ["Trip"]), made, text);
    }
  });
});

describe("words and marks", () => {
  it("reads favourites, stars, rejected, keywords and words, and each suggestion's text makes its chip again", () => {
    assert.deepEqual(chipOf("Favourites"), { kind: "favorite", value: "1", label: "Favourites" });
    assert.deepEqual(chipOf("4 stars"), { kind: "min_rating", value: "4", label: "★★★★ or more" });
    assert.equal(chipOf("★★").value, "2");
    assert.equal(chipOf("rating:6"), null, "stars are 1 to 5");
    assert.equal(chipOf("rejected").kind, "rejected");
    assert.deepEqual(chipOf("keyword: family"), { kind: "keyword", value: "family", label: "Keyword “family”" });
    assert.equal(chipOf("caption:harbour").kind, "text");
    for (const text of ["favourites", "3 stars", "rejected", "keyword:Porto", "text:at the harbour"]) {
      const made = chipOf(text);
      assert.deepEqual(chipOf(suggestionText(made)), made, text);
    }
    assert.ok(suggestionsFor("harb").some((each) => each.kind === "text"), "a word is offered as words on items too");
    assert.equal(queryOf([chipOf("favourites"), chipOf("4 stars")]), "favorite=1&min_rating=4");
  });
});

describe("chips together", () => {
  it("one chip per kind; an album and no album exclude each other", () => {
    let chips = withChip([], chipOf("July 2025"));
    chips = withChip(chips, chipOf("portrait"));
    chips = withChip(chips, chipOf("2024"));
    assert.deepEqual(chips.map((each) => each.value), ["portrait", "2024"]);
    chips = withChip(chips, chipOf("in:Trip", ["Trip"]));
    chips = withChip(chips, chipOf("no album"));
    assert.deepEqual(chips.map((each) => each.kind), ["shape", "taken", "no_album"]);
    assert.equal(queryOf(chips), "shape=portrait&taken=2024&no_album=1");
    assert.equal(queryOf([chipOf("name:a&b c")]), "name=a%26b+c");
  });
});

describe("suggestionsFor", () => {
  it("offers what the text could be, the likely first", () => {
    const offered = suggestionsFor("tr", ["Trip", "Book", "Travel 2026"]);
    assert.deepEqual(offered.slice(0, 2).map((each) => each.label), ["In Trip", "In Travel 2026"]);
    assert.ok(offered.some((each) => each.kind === "camera") && offered.some((each) => each.kind === "name"));
    assert.equal(suggestionsFor("port")[0].label, "Portrait");
    assert.equal(suggestionsFor("july 2025")[0].label, "Taken in July 2025");
    assert.equal(suggestionsFor("no")[0].kind, "no_album");
    assert.ok(suggestionsFor("x", [], 2).length <= 2);
    assert.ok(suggestionsFor("").length > 0, "an empty field still offers something");
  });
});
