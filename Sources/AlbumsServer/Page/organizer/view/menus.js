// Popover menus of the organizer: shown at a point, kept inside the
// window, stepped through with the arrow keys. The photo menu (actions.js)
// and the album and folder menus (album-menus.js) share them.

/// Shows a menu at a point, kept inside the window, its first button focused.
export function showMenuAt(popover, x, y) {
  popover.showPopover();
  const { width, height } = popover.getBoundingClientRect();
  popover.style.left = `${Math.max(4, Math.min(x, innerWidth - width - 4))}px`;
  popover.style.top = `${Math.max(4, Math.min(y, innerHeight - height - 4))}px`;
  popover.querySelector("button").focus();
}

/// Up and down step through a menu's buttons.
export function menuKeys(menu) {
  menu.addEventListener("keydown", (event) => {
    const buttons = [...menu.querySelectorAll("button")];
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step) { event.preventDefault(); buttons[(buttons.indexOf(document.activeElement) + step + buttons.length) % buttons.length].focus(); }
  });
}
