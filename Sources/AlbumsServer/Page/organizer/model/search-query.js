// What the timeline's search field understands, without the page: what a
// person types becomes chips (the filters of GET /api/photos), with
// suggestions while they type. Each chip is one filter; a second chip of
// a kind takes the first one's place, and every chip must hold.

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const SHAPES = ["landscape", "portrait", "square"];
const FORMATS = ["jpeg", "jpg", "png", "heic", "heif", "webp", "gif", "tiff", "avif", "mov", "mp4", "mkv", "webm", "avi", "3gp", "mpg"];
/// Words for every video or every still, and the format the server takes for each.
const KINDS = { video: "video", videos: "video", movie: "video", movies: "video", clip: "video", clips: "video", photo: "photo", photos: "photo", stills: "photo" };
/// Keys a person may type before a colon, and the filter each names.
const PREFIXES = {
  camera: "camera", lens: "lens", name: "name", file: "name", in: "album", album: "album", format: "format", taken: "taken", date: "taken", shape: "shape",
  text: "text", caption: "text", title: "text", keyword: "keyword", tag: "keyword", rating: "min_rating", stars: "min_rating",
};

const pad = (number) => String(number).padStart(2, "0");

/// A date as GET /api/photos takes it (`2025`, `2025-07`, `2025-07-14`, or
/// `A..B` of those) from what a person types: those forms, or words such
/// as "July 2025", "14 jul 2025", "2025 july"; null if it is none.
export function dateOf(text) {
  const typed = text.trim().toLowerCase().replace(/\s+/g, " ");
  if (/^\d{4}(-\d{2}(-\d{2})?)?(\.\.\d{4}(-\d{2}(-\d{2})?)?)?$/.test(typed)) return validDate(typed) ? typed : null;
  const words = typed.replace(/,/g, " ").split(" ").filter(Boolean);
  if (words.length < 2 || words.length > 3) return null;
  const year = words.find((word) => /^\d{4}$/.test(word));
  const month = words.map((word) => MONTHS.findIndex((name) => word.length >= 3 && name.startsWith(word))).find((index) => index >= 0);
  const day = words.find((word) => /^\d{1,2}$/.test(word));
  if (!year || month === undefined || words.length !== (day ? 3 : 2)) return null;
  const date = day ? `${year}-${pad(month + 1)}-${pad(Number(day))}` : `${year}-${pad(month + 1)}`;
  return validDate(date) ? date : null;
}

/// Whether each end of a date (or range) names a real year, month or day.
function validDate(text) {
  return text.split("..").every((end) => {
    const [year, month, day] = end.split("-").map(Number);
    if (year < 1 || (month !== undefined && (month < 1 || month > 12))) return false;
    if (day === undefined) return true;
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  });
}

/// How a date reads in a chip: "July 2025", "14 July 2025", "2025", "… to …".
export function dateLabel(date) {
  return date.split("..").map((end) => {
    const [year, month, day] = end.split("-");
    if (!month) return year;
    const name = MONTHS[Number(month) - 1].replace(/^./, (letter) => letter.toUpperCase());
    return day ? `${Number(day)} ${name} ${year}` : `${name} ${year}`;
  }).join(" to ");
}

/// The chip what a person typed makes, or null for nothing: a date, a
/// shape, a format, "no album", "with location" or "without location",
/// "12 mp", `key:value` (camera, lens, name, in, format, taken, shape), or
/// else a part of the file name. `albums` are the names an `in:` may take.
export function chipOf(text, albums = []) {
  const typed = text.trim();
  if (!typed) return null;
  const lower = typed.toLowerCase();
  const colon = typed.indexOf(":");
  if (colon > 0 && PREFIXES[lower.slice(0, colon).trim()]) {
    const kind = PREFIXES[lower.slice(0, colon).trim()];
    const value = typed.slice(colon + 1).trim();
    if (!value) return null;
    if (kind === "taken") { const date = dateOf(value); return date ? chip("taken", date) : null; }
    if (kind === "shape") return SHAPES.includes(value.toLowerCase()) ? chip("shape", value.toLowerCase()) : null;
    if (kind === "album") return chip("album", albums.find((name) => name.toLowerCase() === value.toLowerCase()) ?? value);
    if (kind === "min_rating") return /^[1-5]$/.test(value) ? chip("min_rating", value) : null;
    if (kind === "format") return chip("format", KINDS[value.toLowerCase()] ?? value.toLowerCase());
    return chip(kind, value);
  }
  const date = dateOf(typed);
  if (date) return chip("taken", date);
  if (SHAPES.includes(lower)) return chip("shape", lower);
  if (FORMATS.includes(lower)) return chip("format", lower);
  if (KINDS[lower]) return chip("format", KINDS[lower]);
  if (["no album", "in no album", "not in an album", "unfiled"].includes(lower)) return chip("no_album", "1");
  if (["with location", "has location", "with a place", "location"].includes(lower)) return chip("location", "1");
  if (["without location", "no location", "without a place"].includes(lower)) return chip("location", "0");
  if (["favorite", "favorites", "favourite", "favourites", "hearted", "♥"].includes(lower)) return chip("favorite", "1");
  if (["rejected", "rejects"].includes(lower)) return chip("rejected", "1");
  const stars = lower.match(/^(?:>=?\s*)?([1-5])\s*(?:stars?|★)$/) ?? (/^★{1,5}$/.test(lower) ? [lower, String(lower.length)] : null);
  if (stars) return chip("min_rating", stars[1]);
  const megapixels = lower.match(/^(?:>=?\s*)?(\d+(?:\.\d+)?)\s*(?:mp|megapixels?)$/);
  if (megapixels) return chip("min_megapixels", megapixels[1]);
  return chip("name", typed);
}

/// A chip: the filter's key in GET /api/photos, its value, and its words.
export function chip(kind, value) {
  const label = {
    // From a range, on a day, in a month or a year.
    taken: () => `Taken ${/\.\./.test(value) ? "from" : /^\d{4}-\d{2}-\d{2}$/.test(value) ? "on" : "in"} ${dateLabel(value)}`,
    name: () => `Name has “${value}”`,
    camera: () => `Camera “${value}”`,
    lens: () => `Lens “${value}”`,
    format: () => ({ video: "Videos", photo: "Photos" })[value] ?? value.toUpperCase(),
    shape: () => value.replace(/^./, (letter) => letter.toUpperCase()),
    album: () => `In ${value}`,
    no_album: () => "In no album",
    location: () => (value === "1" ? "With a location" : "Without a location"),
    min_megapixels: () => `${value} MP or more`,
    text: () => `Words have “${value}”`,
    keyword: () => `Keyword “${value}”`,
    favorite: () => "Favourites",
    min_rating: () => `${"★".repeat(Number(value))} or more`,
    rejected: () => "Rejected",
  }[kind]();
  return { kind, value, label };
}

/// The chips with `added` among them: it takes the place of a chip of its
/// kind, and "in an album" and "in no album" exclude each other.
export function withChip(chips, added) {
  const excluded = { album: "no_album", no_album: "album" }[added.kind];
  return [...chips.filter((each) => each.kind !== added.kind && each.kind !== excluded), added];
}

/// The query of GET /api/photos (and /api/photos/months) the chips ask for.
export function queryOf(chips) {
  const query = new URLSearchParams();
  for (const each of chips) query.set(each.kind, each.value);
  return query.toString();
}

/// What to offer while `text` is typed: the chips it could make, most
/// likely first (a date, an album of that name, a shape or a format it
/// begins, the camera, lens or name holding it), at most `limit`.
export function suggestionsFor(text, albums = [], limit = 8) {
  const typed = text.trim();
  if (!typed) return [chip("no_album", "1"), chip("shape", "portrait"), chip("location", "1")];
  const lower = typed.toLowerCase();
  const found = [];
  const add = (made) => { if (made && !found.some((each) => each.kind === made.kind && each.value === made.value)) found.push(made); };
  const exact = chipOf(typed, albums);
  if (exact && exact.kind !== "name") add(exact);
  for (const name of albums.filter((album) => album.toLowerCase().includes(lower)).slice(0, 3)) add(chip("album", name));
  for (const shape of SHAPES.filter((each) => each.startsWith(lower))) add(chip("shape", shape));
  for (const kind of ["video", "photo"].filter((each) => lower.length >= 2 && each.startsWith(lower))) add(chip("format", kind));
  for (const format of FORMATS.filter((each) => each.startsWith(lower) && each !== "jpg")) add(chip("format", format));
  if ("in no album".startsWith(lower) || "no album".startsWith(lower)) add(chip("no_album", "1"));
  if (lower.length >= 3 && ("favourites".startsWith(lower) || "favorites".startsWith(lower))) add(chip("favorite", "1"));
  if (!/:/.test(typed)) {
    add(chip("text", typed));
    add(chip("keyword", typed));
    add(chip("camera", typed));
    add(chip("lens", typed));
    add(chip("name", typed));
  }
  return found.slice(0, limit);
}

/// The text a suggestion stands for in the field: typing it again makes the same chip.
export function suggestionText(made) {
  return {
    taken: `taken:${made.value}`, name: `name:${made.value}`, camera: `camera:${made.value}`, lens: `lens:${made.value}`,
    format: `format:${made.value}`, shape: made.value, album: `in:${made.value}`, no_album: "no album",
    location: made.value === "1" ? "with location" : "without location", min_megapixels: `${made.value} mp`,
    text: `text:${made.value}`, keyword: `keyword:${made.value}`, favorite: "favourites", min_rating: `${made.value} stars`, rejected: "rejected",
  }[made.kind];
}

/// The `search` of a smart album (create_smart_album) the chips ask for.
export function searchOf(chips) {
  const search = {};
  for (const each of chips) {
    if (["location", "no_album", "favorite", "rejected"].includes(each.kind)) search[each.kind] = each.value === "1";
    else if (each.kind === "min_megapixels" || each.kind === "min_rating") search[each.kind] = Number(each.value);
    else search[each.kind] = each.value;
  }
  return search;
}

/// The chips a smart album's search (as GET /api/albums gives it) stands for.
export function chipsOf(search = {}) {
  const chips = [];
  for (const [kind, value] of Object.entries(search)) {
    if (kind === "unavailable") continue;
    if (kind === "location") chips.push(chip(kind, value ? "1" : "0"));
    else if (["no_album", "favorite", "rejected"].includes(kind)) { if (value) chips.push(chip(kind, "1")); }
    else chips.push(chip(kind, String(value)));
  }
  return chips;
}
