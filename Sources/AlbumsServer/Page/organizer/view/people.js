// People on the page: who is signed in (and signing out), and sharing an
// album from its menu. Without people the server works with its token, and
// none of this shows.

import { api } from "../core/api.js";
import { say } from "../core/state.js";

let who;
let dialog;
let rolesList;
let personSelect;
let roleSelect;
let message;
let sharing = null;

/// Shows who is signed in, and the album menu's Share…, when the server has people.
export async function showSignedIn() {
  const session = await api("/api/session").catch(() => null);
  if (session?.mode !== "people" || !session.person) return;
  document.getElementById("who-name").textContent = `${session.person.name}${session.person.admin ? " (admin)" : ""}`;
  who.hidden = false;
  document.querySelector("#album-menu [data-action=share]").hidden = false;
}

/// Goes to the sign-in page if this browser's sign-in (or the server's
/// token) no longer opens the library; otherwise says the server is gone.
export async function goToSignIn() {
  const session = await api("/api/session").catch(() => null);
  if (session?.mode === "people" && !session.person) return location.assign("/signin");
  say("Lost the server: reload the page once it is back.", true);
}

/// The share dialog of `name`: who holds which role, and giving one.
export async function openShareDialog(name) {
  sharing = name;
  message.textContent = "";
  dialog.querySelector("h2").textContent = `Share ${name}`;
  try {
    const [{ people }] = await Promise.all([api("/api/people"), showRoles()]);
    personSelect.replaceChildren(...people.map((person) => new Option(person.name, person.name)));
    dialog.showModal();
  } catch (error) {
    say(`Not shared: ${error.message}.`, true);
  }
}

async function showRoles() {
  const { roles } = await api(`/api/albums/${encodeURIComponent(sharing)}/roles`);
  render(roles);
}

function render(roles) {
  rolesList.replaceChildren(...roles.map((role) => {
    const line = document.createElement("li");
    line.textContent = `${role.person}: ${role.role}${role.given_on === "album" ? "" : ` (from the folder ${role.given_on})`}`;
    return line;
  }));
  if (roles.length === 0) rolesList.replaceChildren(Object.assign(document.createElement("li"), { textContent: "Shared with nobody yet (admins see everything)." }));
}

/// Looks the page's elements up and listens on them; app.js calls it once
/// the page is there, so the module itself loads anywhere (node's tests).
export function init() {
  who = document.getElementById("who");
  dialog = document.getElementById("share-dialog");
  rolesList = document.getElementById("share-roles");
  personSelect = document.getElementById("share-person");
  roleSelect = document.getElementById("share-role");
  message = document.getElementById("share-message");
  document.getElementById("sign-out").addEventListener("click", async () => {
    await fetch("/api/session", { method: "DELETE", credentials: "same-origin" }).catch(() => {});
    location.assign("/signin");
  });
  document.getElementById("share-give").addEventListener("click", async () => {
    if (!sharing || !personSelect.value) return;
    message.textContent = "";
    try {
      const { roles } = await api(`/api/albums/${encodeURIComponent(sharing)}/roles`, {
        method: "PUT",
        body: JSON.stringify({ person: personSelect.value, role: roleSelect.value || null }),
      });
      render(roles);
      say(roleSelect.value ? `${personSelect.value} is now ${roleSelect.value} of ${sharing}.` : `${personSelect.value} holds no role on ${sharing} now.`);
    } catch (error) {
      message.textContent = error.message;
    }
  });
}
