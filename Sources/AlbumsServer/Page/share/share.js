// A share link's page: one album, read-only, in order, its photos in
// justified rows at their own shapes (the CSS makes the rows from each
// photo's --aspect, held as the organizer holds it). It reads the album
// page by page as it scrolls; the viewer steps through it and plays it as
// a slideshow (in which a video plays to its end); the original is offered
// when the link allows it, and a video plays then, from its original or
// the rendition made where browsers cannot play it (else its frame is
// shown, marked as a video), and a Live Photo's still moves (◎ LIVE, L,
// or a mouse resting on it).

import { aspectOf } from '../common/justified-rows.js';
import { askAgainAfter, playbackPlan, playFromStart, preparingText, unplayableText } from '../common/video-playback.js';
import { contentsText } from '../common/words.js';

const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const base = `/api/share/${encodeURIComponent(token)}`;
const PAGE = 200;
const SLIDE_SECONDS = 4;

const grid = document.getElementById('shared-grid');
const status = document.getElementById('shared-status');
const title = document.getElementById('shared-title');
const more = document.getElementById('shared-more');
const viewer = document.getElementById('shared-viewer');
const image = document.getElementById('shared-image');
const video = document.getElementById('shared-video');
const preparing = document.getElementById('shared-preparing');
const motion = document.getElementById('shared-motion');
const liveButton = document.getElementById('shared-live');
const caption = document.getElementById('shared-caption');
const download = document.getElementById('shared-download');
const playButton = document.getElementById('shared-play');
const slideshowButton = document.getElementById('slideshow-button');
const unlockForm = document.getElementById('unlock-form');
const notice = document.getElementById('shared-notice');

const photos = [];
let album = null;
let loading = false;
let current = -1;
let timer = null;
let playing = false;   // the slideshow
let playbackAsked = 0;   // which video's playback is being asked for: a newer one wins

async function answer(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.error?.message ?? `the server answered ${response.status}`), { code: body.error?.code });
  return body;
}

async function open() {
  try {
    album = await answer(await fetch(base));
  } catch (error) {
    if (error.code === 'password_needed') {
      unlockForm.hidden = false;
      unlockForm.password.focus();
      return;
    }
    showNothing(error.message);
    return;
  }
  unlockForm.hidden = true;
  title.textContent = album.name;
  document.title = `${album.name} · albums`;
  if (album.smart) {
    // A smart album finds photos by each reader's own rights; a link reaches none of its own.
    status.textContent = 'Smart album';
    showNothing('This link leads to a smart album, which shows each person what they may see: through a link it shows nothing. Ask whoever shared it for a link to an album made of it.');
    return;
  }
  status.textContent = contentsText(album.item_count, album.video_count);
  new IntersectionObserver((entries) => { if (entries.some((entry) => entry.isIntersecting)) loadMore(); }, { rootMargin: '600px' }).observe(more);
  await loadMore();
}

// What the page says about the link, in the page's body: the header's
// status holds a count, and a sentence there would squeeze the title.
function tell(text) {
  notice.textContent = text.charAt(0).toUpperCase() + text.slice(1);
  notice.hidden = false;
}

// A link that shows nothing: said, with nothing left to play.
function showNothing(text) {
  tell(text);
  slideshowButton.hidden = true;
}

async function loadMore() {
  if (loading || !album || photos.length >= album.item_count) return;
  loading = true;
  try {
    const page = await answer(await fetch(`${base}/items?offset=${photos.length}&limit=${PAGE}`));
    notice.hidden = true;   // what an earlier page's failure said is over
    if (page.items.length === 0) {
      album.item_count = photos.length;
    }
    for (const item of page.items) addTile(item);
    slideshowButton.disabled = photos.length === 0;
  } catch (error) {
    tell(error.message);
  } finally {
    loading = false;
  }
}

function addTile(item) {
  const index = photos.push(item) - 1;
  const tile = document.createElement('li');
  tile.style.setProperty('--aspect', aspectOf({ display_width: item.width, display_height: item.height }).toFixed(4));
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'shared-tile';
  const isVideo = item.media_type?.startsWith('video/');
  button.setAttribute('aria-label', `${item.title ?? item.name}, ${isVideo ? 'video' : 'photo'} ${item.position}${isVideo && item.duration ? `, ${lengthText(item.duration)}` : ''}`);
  const thumbnail = document.createElement('img');
  thumbnail.loading = 'lazy';
  thumbnail.alt = '';
  thumbnail.src = `${base}/photos/${item.photo_id}/thumbnail?size=256`;
  button.append(thumbnail);
  if (isVideo) {
    const badge = document.createElement('span');
    badge.className = 'video-badge';
    badge.setAttribute('aria-hidden', 'true');
    badge.textContent = `▶ ${lengthText(item.duration)}`.trim();
    button.append(badge);
  }
  button.addEventListener('click', () => show(index));
  tile.append(button);
  grid.append(tile);
}

/// A video's length as a player shows it (0:07, 1:02:03); "" when unknown.
function lengthText(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '';
  const whole = Math.round(seconds);
  const two = (value) => String(value).padStart(2, '0');
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

function show(index) {
  if (photos.length === 0) return;
  current = (index + photos.length) % photos.length;
  const photo = photos[current];
  const frame = `${base}/photos/${photo.photo_id}/thumbnail?size=${album.largest_size ?? 1024}`;
  // A video plays from the original, which only a link that offers originals gives.
  const plays = photo.media_type?.startsWith('video/') && album.download;
  showLive(photo);
  video.hidden = !plays;
  image.hidden = plays;
  playbackAsked += 1;
  preparing.hidden = true;
  video.pause();
  video.removeAttribute('src');
  video.load();
  if (plays) {
    video.poster = frame;
    video.setAttribute('aria-label', photo.caption ?? photo.title ?? photo.name);
    loadVideo(photo);
  } else {
    image.src = frame;
  }
  image.alt = photo.caption ?? photo.title ?? photo.name;
  // The words written for the album's readers first, then where the photo stands.
  const words = [[photo.title, 'shared-words shared-heading'], [photo.caption, 'shared-words']].filter(([text]) => text);
  const place = `${photo.position} of ${album.item_count} · ${photo.name}${photo.captured_at ? ` · ${photo.captured_at}` : ''}`;
  caption.replaceChildren(...words.map(([text, className]) => {
    const line = document.createElement('span');
    line.className = className;
    line.textContent = text;
    return line;
  }), place);
  download.hidden = !album.download;
  if (album.download) {
    download.href = `${base}/photos/${photo.photo_id}/original`;
    download.download = photo.name;
  }
  if (!viewer.open) viewer.showModal();
  if (playing) schedule();
  // The next pages load as the viewer nears the end of what is read.
  if (current >= photos.length - 5) loadMore();
}

/// A Live Photo's button, and its motion ready to play in its still's
/// place, where the link offers originals (the motion is a file as they are).
function showLive(photo) {
  stopMotion();
  const live = Boolean(photo.live_photo) && album.download && !photo.media_type?.startsWith('video/');
  liveButton.hidden = !live;
  if (live) motion.src = `${base}/photos/${photo.photo_id}/motion`;
  else if (motion.getAttribute('src')) { motion.removeAttribute('src'); motion.load(); }
}

function playMotion() {
  if (liveButton.hidden) return;
  image.hidden = true;
  motion.hidden = false;
  liveButton.setAttribute('aria-pressed', 'true');
  playFromStart(motion, stopMotion);
}

function stopMotion() {
  motion.pause();
  if (!motion.hidden) {
    motion.hidden = true;
    image.hidden = false;
  }
  liveButton.setAttribute('aria-pressed', 'false');
}

/// Asks how the video plays and plays it from there; while its rendition
/// is made, says how far it is and asks again.
async function loadVideo(photo) {
  const asked = playbackAsked;
  const original = `${base}/photos/${photo.photo_id}/original`;
  while (asked === playbackAsked) {
    const said = await fetch(`${base}/photos/${photo.photo_id}/playback`, { credentials: 'same-origin' }).then(answer).catch(() => null);
    if (asked !== playbackAsked) return;
    const plan = playbackPlan(said, original);
    if (plan.wait === undefined) {
      preparing.hidden = true;
      video.dataset.note = plan.note ?? '';
      video.src = plan.play;
      if (playing) schedule();
      return;
    }
    preparing.hidden = false;
    preparing.textContent = preparingText(plan.wait);
    await new Promise((resolve) => setTimeout(resolve, askAgainAfter));
  }
}

function play(on) {
  playing = on;
  playButton.setAttribute('aria-pressed', String(on));
  playButton.textContent = on ? '❚❚ Pause' : '▶ Play';
  if (on) schedule();
  else {
    clearTimeout(timer);
    timer = null;
    video.pause();
  }
}

/// The slideshow's next step: a photo's after a few seconds, a video's once
/// it has played to its end (or, when it cannot play or is still being
/// prepared to, after those seconds).
function schedule() {
  clearTimeout(timer);
  timer = null;
  if (!playing) return;
  if (!video.hidden && video.getAttribute('src') && preparing.hidden) {
    video.play().catch(() => { timer = setTimeout(advance, SLIDE_SECONDS * 1000); });
    return;
  }
  timer = setTimeout(advance, SLIDE_SECONDS * 1000);
}

const advance = () => show(current + 1);

document.getElementById('shared-previous').addEventListener('click', () => show(current - 1));
document.getElementById('shared-next').addEventListener('click', () => show(current + 1));
document.getElementById('shared-close').addEventListener('click', () => viewer.close());
playButton.addEventListener('click', () => play(!playing));
liveButton.addEventListener('click', () => (motion.hidden ? playMotion() : stopMotion()));
motion.addEventListener('ended', stopMotion);
// A mouse coming to rest on the photo plays it once; leaving stops it. On
// the figure, which stays as the still and its motion take turns: the
// still shown again at the end does not start it over.
const figure = image.closest('figure');
figure.addEventListener('pointerenter', (event) => { if (event.pointerType === 'mouse') playMotion(); });
figure.addEventListener('pointerleave', (event) => { if (event.pointerType === 'mouse') stopMotion(); });
video.addEventListener('ended', () => { if (playing) advance(); });
video.addEventListener('error', () => {
  if (video.hidden || !video.getAttribute('src')) return;
  preparing.textContent = unplayableText(video.dataset.note || null);
  preparing.hidden = false;
  if (playing) { clearTimeout(timer); timer = setTimeout(advance, SLIDE_SECONDS * 1000); }
});
slideshowButton.addEventListener('click', () => { show(Math.max(current, 0)); play(true); });
viewer.addEventListener('close', () => {
  play(false);
  playbackAsked += 1;
  video.pause();
  video.removeAttribute('src');
  video.load();
  stopMotion();
  motion.removeAttribute('src');
  motion.load();
});
viewer.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowRight') show(current + 1);
  else if (event.key === 'ArrowLeft') show(current - 1);
  else if (event.key === ' ' && event.target === viewer) { event.preventDefault(); play(!playing); }
  else if (event.key.toLowerCase() === 'l' && !liveButton.hidden) { event.preventDefault(); if (motion.hidden) playMotion(); else stopMotion(); }
});
// A swipe steps through, as on a phone's photo viewer.
let touchStart = null;
viewer.addEventListener('touchstart', (event) => { touchStart = event.touches[0].clientX; }, { passive: true });
viewer.addEventListener('touchend', (event) => {
  if (touchStart === null) return;
  const moved = event.changedTouches[0].clientX - touchStart;
  touchStart = null;
  if (Math.abs(moved) > 50) show(current + (moved < 0 ? 1 : -1));
});

unlockForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = document.getElementById('unlock-message');
  message.textContent = '';
  try {
    const response = await fetch(`${base}/unlock`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: unlockForm.password.value }),
    });
    if (!response.ok) await answer(response);
    await open();
  } catch (error) {
    message.textContent = error.message;
    unlockForm.password.select();
  }
});

open();
