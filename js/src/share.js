// Sharing and saving, in the page: files the kernel hands over, charts as PNG or HTML, and the
// "copy link" field.
// - FileSaverModel: the kernel sends {action: 'save', filename, mime, text | base64}; the page
//   saves it as a file (a Blob and a link with `download`), nothing kept in the widget's state.
// - Charts (index.js) call saveChart(): PNG through plotly.js's own downloadImage, HTML as one
//   self-contained file (plotly.js inlined from this extension's static copy: works offline).
// - ShareLinkView: a read-only field with the app's address for the kernel's query (the current
//   scenario) and a Copy button; the address is built here, where the page's real URL is known.
// - PageAddressModel: no view; when the page creates it, it tells the kernel the page's address
//   (`search`, `href`). The in-browser site's kernel has no server to ask for the page's request.
import { DOMWidgetModel, DOMWidgetView } from '@jupyter-widgets/base';

export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

function bytesOf(base64) {
  const raw = atob(base64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
  return out;
}

let plotlySource = null;
function plotlyText(base) {
  // The same file the charts load (cached by the browser), as text to inline in an HTML file.
  if (!plotlySource) {
    plotlySource = fetch(new URL('plotly.min.js', base).href).then((r) => {
      if (!r.ok) throw new Error('plotly.min.js: HTTP ' + r.status);
      return r.text();
    });
    plotlySource.catch(() => { plotlySource = null; });
  }
  return plotlySource;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

export async function chartHtml(figure, title, base) {
  const lib = await plotlyText(base);
  const data = JSON.stringify(figure).replace(/</g, '\\u003c');
  return '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>' + escapeHtml(title) +
    '</title>\n<script>' + lib + '</script></head>\n<body style="margin:0;font-family:sans-serif">\n' +
    '<div id="chart" style="width:100%;height:95vh"></div>\n<script>\nconst figure = ' + data + ';\n' +
    'const layout = Object.assign({}, figure.layout || {}, {autosize: true});\ndelete layout.height;\n' +
    "Plotly.newPlot('chart', figure.data || [], layout, {responsive: true, displaylogo: false});\n" +
    '</script></body></html>\n';
}

export async function saveChart(lib, figureText, format, filename, base) {
  const figure = JSON.parse(figureText || '{}');
  const name = filename || 'chart';
  const title = (figure.layout && figure.layout.title && (figure.layout.title.text || figure.layout.title)) || name;
  if (format === 'png') {
    const layout = Object.assign({}, figure.layout || {});
    const width = 900;
    const height = layout.height || 450;
    await lib.downloadImage({ data: figure.data || [], layout }, { format: 'png', filename: name, width, height });
  } else {
    const text = await chartHtml(figure, typeof title === 'string' ? title : name, base);
    saveBlob(new Blob([text], { type: 'text/html' }), name + '.html');
  }
}

function pageConfig() {
  const el = document.getElementById('jupyter-config-data');
  try { return el ? JSON.parse(el.textContent) : {}; } catch (error) { return {}; }
}

export function appAddress(query, appPath) {
  // The app's address for `query`: this page's own if it is the Voila app (keeping its other
  // parameters, such as a token), else the Voila app beside the notebook open in JupyterLab.
  const here = new URL(window.location.href);
  const config = pageConfig();
  let url;
  // the Voila app (appUrl holds 'voila'), or the site's Voici app (appUrl './voici')
  if (/vo(ila|ici)/.test(String(config.appUrl || '')) || /\/voici\/render\//.test(here.pathname)) {
    url = new URL(here.href);
    url.hash = '';
    for (const key of ['game', 'scenario']) url.searchParams.delete(key);
  } else {
    const base = config.baseUrl || '/';
    const tree = here.pathname.match(/\/(?:lab|doc|notebooks)\/(?:tree\/)?(.*\/)?[^/]+\.ipynb$/);
    const folder = tree ? decodeURI(tree[1] || '') : '';
    const path = tree ? folder + 'explorer.ipynb' : (appPath || 'notebooks/explorer.ipynb');
    url = new URL(base.replace(/\/?$/, '/') + 'voila/render/' + path, here.origin);
  }
  const extra = new URLSearchParams(query || '');
  for (const [key, value] of extra) url.searchParams.set(key, value);
  return url.href;
}

// The widget classes, named with the extension's module and version (index.js holds them).
export function sharingWidgets(MODULE, VERSION) {
  class FileSaverModel extends DOMWidgetModel {
    defaults() {
      return {
        ...super.defaults(),
        _model_name: 'FileSaverModel', _model_module: MODULE, _model_module_version: VERSION,
        _view_name: 'FileSaverView', _view_module: MODULE, _view_module_version: VERSION,
        saved: 0,
      };
    }

    initialize(attributes, options) {
      super.initialize(attributes, options);
      this.on('msg:custom', (content) => {
        if (!content || content.action !== 'save') return;
        const body = content.base64 !== undefined ? bytesOf(content.base64) : String(content.text || '');
        saveBlob(new Blob([body], { type: content.mime || 'application/octet-stream' }), content.filename || 'download');
        this.set('saved', (this.get('saved') || 0) + 1);
        this.save_changes();
      });
    }
  }

  class FileSaverView extends DOMWidgetView {
    render() {
      this.el.classList.add('explorer-file-saver');
      this.el.style.display = 'none';
    }
  }

  class ShareLinkModel extends DOMWidgetModel {
    defaults() {
      return {
        ...super.defaults(),
        _model_name: 'ShareLinkModel', _model_module: MODULE, _model_module_version: VERSION,
        _view_name: 'ShareLinkView', _view_module: MODULE, _view_module_version: VERSION,
        query: '', href: '', app_path: '', link: '', copies: 0, problem: '',
      };
    }
  }

  class ShareLinkView extends DOMWidgetView {
    render() {
      // The row is a div of its own: the widget's element takes its display from the layout.
      const el = this.el;
      el.classList.add('explorer-share');
      const row = document.createElement('div');
      row.style.cssText = 'display:flex;gap:6px;align-items:center;width:100%;box-sizing:border-box';
      this.button = document.createElement('button');
      this.button.className = 'jupyter-widgets jupyter-button widget-button mod-info explorer-share-copy';
      this.button.textContent = 'Copy link';
      this.button.title = 'Put a link to this scenario in the field and on the clipboard';
      this.button.style.flex = '0 0 auto';
      this.field = document.createElement('input');
      this.field.type = 'text';
      this.field.readOnly = true;
      this.field.className = 'explorer-share-link';
      this.field.placeholder = 'Copy link: the address that opens the app on this scenario';
      this.field.style.cssText = 'flex:1 1 auto;min-width:10em;width:100%;font-family:monospace;font-size:12px';
      this.status = document.createElement('span');
      this.status.className = 'explorer-share-status';
      this.status.style.cssText = 'flex:0 0 auto;color:#5d6d7e;font-size:90%';
      row.append(this.button, this.field, this.status);
      el.append(row);
      this.field.addEventListener('focus', () => this.field.select());
      this.field.addEventListener('click', () => this.field.select());
      this.button.addEventListener('click', () => this.copy());
      this.listenTo(this.model, 'change:query change:href change:problem', () => this.refresh());
      this.shown = false;
    }

    address() {
      const href = this.model.get('href');
      return href || appAddress(this.model.get('query'), this.model.get('app_path'));
    }

    refresh() {
      // A link shown goes on following the scenario (a later change gives a new link).
      if (!this.shown) return;
      this.show();
    }

    show() {
      const problem = this.model.get('problem');
      if (problem) {
        this.field.value = '';
        this.status.textContent = problem;
        return '';
      }
      const link = this.address();
      this.field.value = link;
      this.shown = true;
      if (this.model.get('link') !== link) {
        this.model.set('link', link);
        this.model.save_changes();
      }
      return link;
    }

    async copy() {
      const link = this.show();
      if (!link) return;
      this.field.focus();
      this.field.select();
      let copied = false;
      try {
        if (navigator.clipboard && window.isSecureContext) {
          await navigator.clipboard.writeText(link);
          copied = true;
        }
      } catch (error) {
        copied = false;
      }
      if (!copied) {
        try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
      }
      this.status.textContent = copied ? 'copied' : 'select the link and copy it (Ctrl+C)';
      this.model.set('copies', (this.model.get('copies') || 0) + 1);
      this.model.save_changes();
    }
  }

  class PageAddressModel extends DOMWidgetModel {
    defaults() {
      return {
        ...super.defaults(),
        _model_name: 'PageAddressModel', _model_module: MODULE, _model_module_version: VERSION,
        _view_name: null, _view_module: null, _view_module_version: VERSION,
        search: '', href: '',
      };
    }

    initialize(attributes, options) {
      super.initialize(attributes, options);
      const here = new URL(window.location.href);
      here.hash = '';
      this.set({ search: here.search, href: here.href });
      this.save_changes();
    }
  }

  return { FileSaverModel, FileSaverView, ShareLinkModel, ShareLinkView, PageAddressModel };
}
