// The rules explorer's chart widget (front end), registered with the Jupyter widget manager.
//
// Why it is written this way (each point is a cause of a stale chart seen before):
// - The kernel sends the whole figure on every change and the view draws what the model holds
//   when it draws: no deltas, so an update that arrives before a view is ready cannot be lost.
// - It is a plain ipywidgets model from a prebuilt extension, served over HTTP with the page:
//   no code arrives in a widget message and no start-up timer can disable the model (anywidget
//   0.11 drops every later message to a model whose code took more than 2 s to start).
// - plotly.js loads once per page, over HTTP (cached by the browser), from this extension's
//   static folder, where `python -m explorer.panels.common.install` put plotly's own copy.
// - Draws are serialised; a change during a draw schedules one more draw of the latest state.
// - A hidden chart (a tab not shown) is drawn when it gets a size, not at width 0.
// - What is on screen is written on the element: data-revision (the kernel's revision drawn)
//   and data-state (loading / hidden / drawn / stale / error); a chart that cannot draw says so.
// - The kernel can ask the model (once per page, not per view) to save the figure as PNG or as a
//   self-contained HTML file (share.js), from the figure the model holds, drawn or not.
// - The scenario box's "Open file" button is FileOpenerView (upload.js): a file past the size cap
//   is refused in the page, never sent.
// - Access: the chart is a figure (role, and its title as label) with a text alternative one
//   click or key away, "Numbers of this chart": a table of every trace's values, written from the
//   figure drawn; the plot itself is hidden from screen readers (its SVG says nothing useful).
//   Plotly's tool bar is off on narrow screens, where it covered the titles.
import { DOMWidgetModel, DOMWidgetView, IJupyterWidgetRegistry } from '@jupyter-widgets/base';
import { saveChart, sharingWidgets } from './share.js';
import { FileOpenerView } from './upload.js';
import { installAccess } from './access.js';

const MODULE = 'explorer-chart';
const VERSION = '1.1.0';
const { FileSaverModel, FileSaverView, ShareLinkModel, ShareLinkView, PageAddressModel } = sharingWidgets(MODULE, VERSION);

const CSS = `
.explorer-chart { position: relative; width: 100%; min-width: 0; }
.explorer-chart-plot { width: 100%; }
.explorer-chart-overlay {
  position: absolute; inset: 0; display: none; align-items: center; justify-content: center;
  padding: 12px; text-align: center; font-size: 13px; color: #7b241c; font-weight: 600;
  pointer-events: none; background: rgba(255, 255, 255, 0.55);
}
.explorer-chart-dim .explorer-chart-plot { opacity: 0.25; }
.explorer-chart-pending .explorer-chart-overlay {
  color: #5d6d7e; background: rgba(255, 255, 255, 0.35);
  animation: explorer-chart-appear 0s linear 0.35s both;
}
.explorer-chart-loading .explorer-chart-overlay { color: #5d6d7e; font-weight: 400; }
.explorer-chart-numbers { font-size: 12px; margin: 2px 0 6px 0; }
.explorer-chart-numbers summary { cursor: pointer; color: #1f4e79; }
.explorer-chart-numbers summary:focus-visible { outline: 2px solid #1f4e79; outline-offset: 2px; }
.explorer-chart-numbers .explorer-chart-table { max-height: 260px; overflow: auto; }
.explorer-chart-numbers table { border-collapse: collapse; }
.explorer-chart-numbers th, .explorer-chart-numbers td { border: 1px solid #d5d8dc; padding: 1px 6px; text-align: right; }
@keyframes explorer-chart-appear { from { opacity: 0; } to { opacity: 1; } }
`;

let styled = false;
function addStyle() {
  if (styled) return;
  styled = true;
  const style = document.createElement('style');
  style.textContent = CSS;
  document.head.appendChild(style);
}

/** Below this width (px) a chart draws without plotly's tool bar, and fits its title and legend (`fitNarrow`). */
const NARROW = 600;

function fitNarrow(layout) {
  // A narrow chart (a phone, a stacked column): a smaller title, and when the chart has a
  // legend above it, the title on its own line at the top and the legend under it on the left,
  // so neither covers the other (the chart grows by that line).
  const title = typeof layout.title === 'object' && layout.title ? layout.title : { text: layout.title || '' };
  const font = Object.assign({}, title.font || {}, { size: Math.min((title.font && title.font.size) || 17, 15) });
  layout.title = Object.assign({}, title, { font });
  const legend = layout.legend || {};
  if (layout.showlegend === false || legend.orientation !== 'h' || !(legend.y > 1)) return;
  const margin = Object.assign({}, layout.margin || {});
  const top = margin.t === undefined ? 80 : margin.t;
  margin.t = top + 24;
  layout.margin = margin;
  layout.height = (layout.height || 0) + 24;
  layout.legend = Object.assign({}, legend, { x: 0, xanchor: 'left' });
  layout.title = Object.assign({}, layout.title, { y: 1, yref: 'container', yanchor: 'top', pad: { t: 6 } });
}

function plainText(value) {
  // A title as people read it: plotly's markup (<br>, <b>...) removed.
  return String(value == null ? '' : value).replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, '').trim();
}

function titleOf(figure) {
  const title = (figure.layout || {}).title;
  return plainText(title && typeof title === 'object' ? title.text : title) || 'chart';
}

function axisTitle(axis) {
  const title = axis.title;
  return plainText(title && typeof title === 'object' ? title.text : title);
}

function shown(value, percent) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value == null ? '' : String(value);
  if (percent) return (value * 100).toFixed(2) + '%';
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

function cell(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

/** The figure's numbers as tables, one per trace (a heatmap: one row per y value). */
export function numbersTable(figure) {
  const box = document.createElement('div');
  const layout = figure.layout || {};
  for (const trace of figure.data || []) {
    const table = document.createElement('table');
    const caption = cell('caption', plainText(trace.name) || titleOf(figure));
    caption.style.textAlign = 'left';
    table.append(caption);
    if (trace.type === 'heatmap') {
      const percent = String((trace.texttemplate || trace.hovertemplate || '')).includes('%');
      const head = document.createElement('tr');
      head.append(cell('th', ''), ...(trace.x || []).map((x) => cell('th', plainText(x))));
      table.append(head);
      (trace.z || []).forEach((row, i) => {
        const tr = document.createElement('tr');
        tr.append(cell('th', plainText((trace.y || [])[i])), ...row.map((v) => cell('td', shown(v, percent))));
        table.append(tr);
      });
    } else {
      const horizontal = trace.orientation === 'h';
      const labels = horizontal ? trace.y || [] : trace.x || [];
      const values = horizontal ? trace.x || [] : trace.y || [];
      const axis = horizontal ? layout.xaxis || {} : layout.yaxis || {};
      const percent = String(axis.tickformat || '').includes('%');
      const head = document.createElement('tr');
      const keyAxis = horizontal ? layout.yaxis || {} : layout.xaxis || {};
      head.append(cell('th', axisTitle(keyAxis) || 'outcome'), cell('th', axisTitle(axis) || 'value'));
      table.append(head);
      labels.forEach((label, i) => {
        const tr = document.createElement('tr');
        tr.append(cell('th', plainText(label)), cell('td', shown(values[i], percent)));
        table.append(tr);
      });
    }
    box.append(table);
  }
  if (!box.childElementCount) box.textContent = 'Nothing is drawn yet.';
  return box;
}

let library = null;
function plotly() {
  // One promise per page; the script is this extension's static copy of plotly's plotly.min.js.
  if (!library) {
    library = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = new URL('plotly.min.js', __webpack_public_path__).href;
      script.onload = () => {
        const lib = window.Plotly;
        if (lib && typeof lib.react === 'function') resolve(lib);
        else reject(new Error('plotly.js loaded without Plotly.react'));
      };
      script.onerror = () => {
        library = null; // let a later chart try again
        reject(new Error('the chart library did not load from ' + script.src +
          ' (run `make setup`, or `python -m explorer.panels.common.install`)'));
      };
      document.head.appendChild(script);
    });
  }
  return library;
}

export class ChartModel extends DOMWidgetModel {
  defaults() {
    return {
      ...super.defaults(),
      _model_name: 'ChartModel', _model_module: MODULE, _model_module_version: VERSION,
      _view_name: 'ChartView', _view_module: MODULE, _view_module_version: VERSION,
      figure: '{}', revision: 0, note: '', pending: false, height: 300,
    };
  }

  initialize(attributes, options) {
    super.initialize(attributes, options);
    this.on('msg:custom', (content) => {
      if (!content || content.action !== 'download') return;
      plotly()
        .then((lib) => saveChart(lib, this.get('figure'), content.format, content.filename, __webpack_public_path__))
        .catch((error) => console.warn('explorer-chart: the chart could not be saved:', error));
    });
  }
}

export class ChartView extends DOMWidgetView {
  render() {
    addStyle();
    const el = this.el;
    el.classList.add('explorer-chart', 'explorer-chart-loading');
    this.plot = document.createElement('div');
    this.plot.className = 'explorer-chart-plot';
    this.plot.style.minHeight = (this.model.get('height') || 300) + 'px';
    this.overlay = document.createElement('div');
    this.overlay.className = 'explorer-chart-overlay';
    this.plot.setAttribute('aria-hidden', 'true');
    el.setAttribute('role', 'figure');
    el.setAttribute('aria-label', 'chart (loading)');
    this.numbers = document.createElement('details');
    this.numbers.className = 'explorer-chart-numbers';
    this.numbers.append(cell('summary', 'Numbers of this chart'));
    this.numbersBox = document.createElement('div');
    this.numbersBox.className = 'explorer-chart-table';
    this.numbers.append(this.numbersBox);
    this.numbers.addEventListener('toggle', () => this.fillNumbers());
    el.append(this.plot, this.overlay, this.numbers);
    el.dataset.state = 'loading';
    el.dataset.revision = '-1';
    this.lib = null;
    this.drawing = false;
    this.again = false;
    this.alive = true;
    this.overlay.textContent = 'loading the chart library…';
    this.overlay.style.display = 'flex';

    this.listenTo(this.model, 'change:figure change:revision change:height', () => this.draw());
    this.listenTo(this.model, 'change:note change:pending', () => this.showOverlay());
    this.resize = new ResizeObserver(() => {
      if (!this.lib || this.plot.offsetWidth === 0) return;
      if (Number(el.dataset.revision) !== this.model.get('revision')) this.draw();
      else this.lib.Plots.resize(this.plot);
    });
    this.resize.observe(this.plot);
    plotly().then((lib) => {
      this.lib = lib;
      el.classList.remove('explorer-chart-loading');
      this.showOverlay();
      this.draw();
    }, (error) => this.fail(error));
  }

  fillNumbers() {
    // Written when opened (and redrawn while open), from the figure the model holds.
    if (!this.numbers.open) return;
    const figure = JSON.parse(this.model.get('figure') || '{}');
    this.numbersBox.replaceChildren(numbersTable(figure));
  }

  showOverlay() {
    const el = this.el;
    const note = this.model.get('note');
    const pending = this.model.get('pending');
    if (el.dataset.state === 'error' || !this.lib) return;
    const text = note || (pending ? 'updating…' : '');
    this.overlay.textContent = text;
    this.overlay.style.display = text ? 'flex' : 'none';
    el.classList.toggle('explorer-chart-dim', Boolean(note));
    el.classList.toggle('explorer-chart-pending', Boolean(pending) && !note);
    if (el.dataset.state === 'drawn' || el.dataset.state === 'stale') {
      el.dataset.state = note ? 'stale' : 'drawn';
    }
  }

  fail(error) {
    const el = this.el;
    el.dataset.state = 'error';
    el.classList.remove('explorer-chart-loading', 'explorer-chart-pending');
    el.classList.add('explorer-chart-dim');
    this.overlay.textContent = 'This chart could not be drawn: ' + String(error && error.message ? error.message : error);
    this.overlay.style.display = 'flex';
  }

  async draw() {
    const el = this.el;
    if (!this.alive || !this.lib) return;
    if (this.plot.offsetWidth === 0) { // hidden: drawn by the resize observer when shown
      if (el.dataset.state === 'loading') el.dataset.state = 'hidden';
      return;
    }
    if (this.drawing) { this.again = true; return; }
    this.drawing = true;
    try {
      do {
        this.again = false;
        const revision = this.model.get('revision');
        const figure = JSON.parse(this.model.get('figure') || '{}');
        const layout = Object.assign({}, figure.layout || {}, { autosize: true });
        layout.height = layout.height || this.model.get('height');
        delete layout.width;
        const narrow = this.plot.offsetWidth < NARROW;
        if (narrow) fitNarrow(layout);
        this.plot.style.minHeight = layout.height + 'px';
        await this.lib.react(this.plot, figure.data || [], layout,
          { displaylogo: false, responsive: true, displayModeBar: narrow ? false : 'hover' });
        el.setAttribute('aria-label', titleOf(figure) + (this.model.get('note') ? ' (not current: ' +
          this.model.get('note') + ')' : ''));
        this.fillNumbers();
        el.dataset.revision = String(revision);
        el.dataset.state = this.model.get('note') ? 'stale' : 'drawn';
        this.showOverlay();
      } while (this.again && this.alive);
    } catch (error) {
      this.fail(error);
    } finally {
      this.drawing = false;
    }
  }

  remove() {
    this.alive = false;
    if (this.resize) this.resize.disconnect();
    if (this.lib) this.lib.purge(this.plot);
    super.remove();
  }
}

const plugin = {
  id: 'explorer-chart:plugin',
  requires: [IJupyterWidgetRegistry],
  autoStart: true,
  activate: (_app, registry) => {
    installAccess();
    registry.registerWidget({
      name: MODULE,
      version: VERSION,
      exports: { ChartModel, ChartView, FileSaverModel, FileSaverView, ShareLinkModel, ShareLinkView, PageAddressModel, FileOpenerView },
    });
  },
};

export default plugin;
