// The sign-in page: names and passwords go to /api/session, which answers
// with an HttpOnly session cookie; the page then opens the organizer.

const form = document.getElementById('signin-form');
const message = document.getElementById('signin-message');
const button = document.getElementById('signin-button');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  message.textContent = '';
  button.disabled = true;
  try {
    const response = await fetch('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: form.name.value.trim(), password: form.password.value }),
    });
    if (response.ok) {
      location.assign('/');
      return;
    }
    const answer = await response.json().catch(() => ({}));
    message.textContent = answer.error?.message ?? `sign-in failed (${response.status})`;
    form.password.select();
  } catch {
    message.textContent = 'the server cannot be reached';
  } finally {
    button.disabled = false;
  }
});
