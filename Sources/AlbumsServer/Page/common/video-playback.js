// How a video plays, from the server's answer to `GET …/playback`: from a
// URL at once (its original, or the rendition made for browsers), or once
// its rendition is made, asking again meanwhile. The organizer's viewer and
// a share link's page alike.

/// How long to wait before asking again while a rendition is made, in milliseconds.
export const askAgainAfter = 1000;

/// What to do with `answer` (null or anything else: the server could not
/// say): `{ play: url, note }`, where `note` says why the original is all
/// there is (it may not play here), or `{ wait: percent }`.
export function playbackPlan(answer, originalURL) {
  if (answer?.state === "preparing") {
    const fraction = typeof answer.progress === "number" && Number.isFinite(answer.progress) ? Math.min(1, Math.max(0, answer.progress)) : 0;
    return { wait: Math.floor(fraction * 100) };
  }
  // Only a path on this server: the answer names what to fetch.
  const url = typeof answer?.url === "string" && answer.url.startsWith("/") && !answer.url.startsWith("//") ? answer.url : originalURL;
  const note = answer?.state === "unconverted" && typeof answer.reason === "string" ? answer.reason : null;
  return { play: url, note };
}

/// What the viewer shows while the rendition is made.
export const preparingText = (percent) => `Preparing this video to play in the browser… ${percent}%`;

/// What it says when the original will not play and nothing else can.
export const unplayableText = (note) =>
  `This browser cannot play this video's format; its frame is shown, and the original can be downloaded.${note ? ` The server made no copy that plays: ${note}.` : ""}`;

/// Plays a Live Photo's motion from its start: with its sound where the
/// browser lets a page play so, else without; `failed` hears when it cannot play at all.
export function playFromStart(media, failed) {
  media.currentTime = 0;
  media.muted = false;
  media.play().catch(() => { media.muted = true; return media.play().catch(failed); });
}
