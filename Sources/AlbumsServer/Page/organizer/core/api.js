// The server's JSON API (the same keys and error codes as `albums --json`).

/// Sends a request; answers its JSON, or throws an Error with the API's
/// `code`, the HTTP `status` and the server's message.
export async function api(path, options = {}) {
  const response = await fetch(path, { credentials: "same-origin", ...options });
  const body = await response.json().catch(() => ({}));
  // A session that ended (signed out elsewhere, expired, disabled): sign in again.
  if (response.status === 401 && body?.error?.code === "sign_in_needed") location.assign("/signin");
  if (!response.ok) throw refusal(response.status, response.statusText, body);
  return body;
}

export function refusal(status, statusText, body) {
  const error = new Error(body?.error ? withPageWords(body.error) : `${status} ${statusText}`);
  error.code = body?.error?.code;
  error.status = status;
  return error;
}

/// What to do next on this page, by error code: the server's message says
/// the facts in no front end's words, and each front end adds its own (the
/// CLI its commands, the page its menus and buttons).
const pageWords = {
  album_locked: "unlock it from the album menu (⋯) first",
  smart_album: "make an album of it from its menu (⋯) to arrange it by hand",
  folder_locked: "unlock the folder from its menu first",
  album_has_pending_loads: "wait for its photos to load, or remove their placeholders, first",
  placeholder_not_allowed: "wait for it to load, or remove it to cancel the load",
  folder_not_empty: "choose what becomes of what it holds",
  revision_mismatch: "the page shows it as it is now: try again",
  nothing_to_undo: "every change shown in History is undone already",
};

/// A refusal's message (`{code, message}`) with the page's words after it.
export function withPageWords(refusal) {
  const words = pageWords[refusal?.code];
  return words ? `${refusal.message}; ${words}` : refusal?.message;
}

export const itemsPath = (name, offset, limit) => `/api/albums/${encodeURIComponent(name)}/items?offset=${offset}&limit=${limit}`;

/// What an operation would do: the proposal (verdict, reason, change sets); writes nothing.
export async function propose(operation) {
  const proposal = await api("/api/operations?dry_run=1", { method: "POST", body: JSON.stringify(operation) });
  if (proposal?.reason?.message) proposal.reason = { ...proposal.reason, message: withPageWords(proposal.reason) };
  return proposal;
}

/// Performs an operation; answers its change sets.
export const performOperation = (operation) => api("/api/operations", { method: "POST", body: JSON.stringify(operation) });

/// The thumbnail size to ask for: `pixels` in device pixels, on a short
/// ladder so that the server's cache is shared between zoom levels.
export function thumbnailSize(pixels) {
  const wanted = pixels * (window.devicePixelRatio || 1);
  return [128, 256, 384, 512, 768, 1024, 1536].find((size) => size >= wanted) ?? 2048;
}

export const thumbnailURL = (photoId, pixels) => `/api/photos/${photoId}/thumbnail?size=${thumbnailSize(pixels)}`;

/// The original's bytes: a video plays from them, seeking by Range.
export const originalURL = (photoId) => `/api/photos/${photoId}/original`;

/// How a video plays: from its original, or a rendition made for browsers (or not yet).
export const playback = (photoId) => api(`/api/photos/${photoId}/playback`);

/// A Live Photo's motion, played when its still is pressed.
export const motionURL = (photoId) => `/api/photos/${photoId}/motion`;
