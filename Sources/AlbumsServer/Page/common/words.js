// Counts in words, as the organizer and a share link's page say them.

/// "1 photo", "1,234 photos".
export const plural = (count, word) => `${count.toLocaleString("en")} ${word}${count === 1 ? "" : "s"}`;

/// What an album holds, from its count of items and how many of them are
/// videos: "12 photos", "10 photos, 2 videos", "3 videos". Items still
/// loading count as photos, as they did before they were known.
export function contentsText(count, videos = 0) {
  const clips = Math.min(Math.max(0, videos || 0), count);
  if (clips === 0) return plural(count, "photo");
  if (clips === count) return plural(clips, "video");
  return `${plural(count - clips, "photo")}, ${plural(clips, "video")}`;
}
