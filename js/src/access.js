// What the standard widgets leave out for keyboards and screen readers, added once for the page.
//
// * Icon-only buttons (trash, arrows) are named by their tooltip (aria-label), and every Font
//   Awesome glyph is hidden from screen readers (it would be read as a private-use character).
// * Toggle buttons say whether they are pressed (aria-pressed follows the widget's state).
// * A slider's handle is named by the slider's label.
// * A table wider than its column scrolls sideways in its own box (CSS), which the keyboard can
//   reach and scroll (tabindex 0, a region named after the table's first header).
// * Number boxes (`explorer.panels.common.number_box.NumberText`, class `explorer-number`) apply
//   a whole number as it is typed, 350 ms after the last key, and step with the arrow keys (Shift:
//   by 5); they show the phone's number keypad. Text that is not a whole number still waits for
//   Enter or leaving the box, where the panel says what is wrong.
//
// Everything is keyed on CSS classes, so it works the same in Voila, JupyterLab and the static
// site, and costs nothing where no such control is on the page.

const DEBOUNCE_MS = 350;
const WHOLE = /^\s*[+-]?\d+\s*$/;

function fixButton(button) {
  for (const icon of button.querySelectorAll('i.fa')) icon.setAttribute('aria-hidden', 'true');
  const title = button.getAttribute('title');
  if (!button.textContent.trim() && title) button.setAttribute('aria-label', title);
  else if (button.getAttribute('aria-label') && button.textContent.trim()) button.removeAttribute('aria-label');
  if (button.classList.contains('widget-toggle-button') || button.parentElement?.classList.contains('widget-toggle-buttons')) {
    button.setAttribute('aria-pressed', button.classList.contains('mod-active') ? 'true' : 'false');
  }
}

function fixSlider(handle) {
  const widget = handle.closest('.widget-slider');
  const label = widget && widget.querySelector('.widget-label');
  const name = label && label.textContent.trim();
  if (name && handle.getAttribute('aria-label') !== name) handle.setAttribute('aria-label', name);
}

function fixNumber(input) {
  if (input.getAttribute('inputmode') !== 'numeric') input.setAttribute('inputmode', 'numeric');
}

function fixTable(table) {
  const box = table.closest('.explorer-root .widget-html-content');
  if (!box || box.getAttribute('tabindex') === '0') return;
  box.setAttribute('tabindex', '0');
  box.setAttribute('role', 'region');
  const caption = table.querySelector('caption, th');
  const words = caption && caption.textContent.trim();
  box.setAttribute('aria-label', 'table' + (words ? ': ' + words.slice(0, 60) : '') + ' (scrolls sideways if wider than the page)');
}

function fix(node) {
  if (!(node instanceof Element) || node.closest('.explorer-chart-plot')) return;
  if (node.matches('button.jupyter-button')) fixButton(node);
  for (const button of node.querySelectorAll('button.jupyter-button')) fixButton(button);
  for (const handle of node.querySelectorAll('.widget-slider .noUi-handle')) fixSlider(handle);
  if (node.matches('table')) fixTable(node);
  for (const table of node.querySelectorAll('table')) fixTable(table);
  if (node.matches('.explorer-number input')) fixNumber(node);
  for (const input of node.querySelectorAll('.explorer-number input')) fixNumber(input);
}

function numberInput(target) {
  return target instanceof HTMLInputElement && target.closest('.explorer-number') ? target : null;
}

function apply(input) {
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const timers = new WeakMap();

function typed(event) {
  const input = numberInput(event.target);
  if (!input) return;
  clearTimeout(timers.get(input));
  if (!WHOLE.test(input.value)) return;
  timers.set(input, setTimeout(() => { if (input.isConnected) apply(input); }, DEBOUNCE_MS));
}

function stepped(event) {
  const input = numberInput(event.target);
  if (!input || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || event.altKey || event.ctrlKey || event.metaKey) return;
  if (!WHOLE.test(input.value)) return;
  event.preventDefault();
  const signed = input.closest('.explorer-number-signed') !== null;
  const step = (event.key === 'ArrowUp' ? 1 : -1) * (event.shiftKey ? 5 : 1);
  const next = parseInt(input.value, 10) + step;
  input.value = String(signed ? next : Math.max(0, next));
  clearTimeout(timers.get(input));
  apply(input);
}

export function installAccess() {
  if (typeof document === 'undefined' || window.__explorerAccess) return;
  window.__explorerAccess = true;
  document.addEventListener('input', typed, true);
  document.addEventListener('keydown', stepped, true);
  const start = () => {
    fix(document.body);
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') {
          if (record.target instanceof HTMLButtonElement) fixButton(record.target);
        } else {
          for (const node of record.addedNodes) fix(node);
          if (record.target instanceof HTMLButtonElement) fixButton(record.target);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'title'] });
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
}
