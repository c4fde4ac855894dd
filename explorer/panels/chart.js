// The browser half of explorer.panels.chart.Chart: draws the model's current figure with plotly.js.
//
// Why it is written this way (each point is a cause of a stale chart we have seen):
// - Every draw reads the model's *whole* current figure, never a delta, so a change that arrives
//   while the view is not ready (library still loading, tab hidden) cannot be lost.
// - Draws are serialised: a change during a draw schedules one more draw of the latest state.
// - plotly.js (about 4.8 MB) reaches the page once, gzipped, as one custom message from the
//   kernel, whichever chart asks first; every chart on the page shares it.
// - A hidden chart (a tab not shown) is drawn when it gets a size, not at width 0.
// - What is on screen is written on the element: data-revision (the kernel's revision drawn),
//   data-state (loading / drawn / stale / error); a chart that cannot draw says so in place.

const KEY = "__explorerPlotly";

function plotlyLibrary(model) {
  // One promise per page, shared by every chart; asked again if no answer comes.
  let entry = globalThis[KEY];
  if (entry && entry.version !== model.get("plotly_version")) entry = null;
  if (!entry) {
    let resolve, reject;
    const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
    entry = { version: model.get("plotly_version"), promise, resolve, reject, asked: 0, done: false };
    globalThis[KEY] = entry;
  }
  if (!entry.done && Date.now() - entry.asked > 15000) {
    entry.asked = Date.now();
    model.send({ type: "plotly-please" });
  }
  return entry;
}

async function installLibrary(entry, buffer) {
  if (entry.done) return;
  const stream = new Blob([buffer]).stream().pipeThrough(new DecompressionStream("gzip"));
  const source = await new Response(stream).text();
  // A local `module` keeps the bundle from registering with any AMD loader on the page.
  const wrapped = "(function(){var module={exports:{}};var exports=module.exports;var define;\n" + source +
    "\n;globalThis." + KEY + "Lib=module.exports;})();";
  const url = URL.createObjectURL(new Blob([wrapped], { type: "text/javascript" }));
  await new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.onload = resolve;
    script.onerror = () => reject(new Error("plotly.js failed to load"));
    document.head.appendChild(script);
  });
  URL.revokeObjectURL(url);
  const lib = globalThis[KEY + "Lib"];
  if (!lib || typeof lib.react !== "function") throw new Error("plotly.js loaded without Plotly.react");
  entry.done = true;
  entry.resolve(lib);
}

function render({ model, el }) {
  el.classList.add("explorer-chart");
  const plot = document.createElement("div");
  plot.className = "explorer-chart-plot";
  const overlay = document.createElement("div");
  overlay.className = "explorer-chart-overlay";
  el.append(plot, overlay);
  el.dataset.state = "loading";
  el.dataset.revision = "-1";
  el.classList.add("explorer-chart-loading");

  const entry = plotlyLibrary(model);
  const onMessage = (msg, buffers) => {
    if (msg && msg.type === "plotly" && buffers && buffers.length) {
      installLibrary(entry, buffers[0].buffer ? buffers[0] : new Uint8Array(buffers[0]))
        .catch((error) => { entry.reject(error); });
    }
  };
  model.on("msg:custom", onMessage);

  let Plotly = null;
  let drawing = false;
  let again = false;
  let alive = true;

  function showOverlay() {
    const note = model.get("note");
    const pending = model.get("pending");
    const text = note || (pending ? "updating…" : "");
    overlay.textContent = text;
    overlay.style.display = text ? "flex" : "none";
    el.classList.toggle("explorer-chart-dim", Boolean(note));
    el.classList.toggle("explorer-chart-pending", Boolean(pending) && !note);
    if (el.dataset.state === "drawn" || el.dataset.state === "stale") {
      el.dataset.state = note ? "stale" : "drawn";
    }
  }

  function fail(message) {
    el.dataset.state = "error";
    overlay.textContent = "This chart could not be drawn: " + message;
    overlay.style.display = "flex";
    el.classList.add("explorer-chart-dim");
  }

  async function draw() {
    if (!alive) return;
    if (!Plotly) return;
    if (plot.offsetWidth === 0) { // hidden (a tab not shown): drawn by the resize observer when shown
      if (el.dataset.state === "loading") el.dataset.state = "hidden";
      return;
    }
    if (drawing) { again = true; return; }
    drawing = true;
    try {
      do {
        again = false;
        const revision = model.get("revision");
        const figure = JSON.parse(model.get("figure") || "{}");
        const layout = Object.assign({}, figure.layout || {}, { autosize: true });
        layout.height = layout.height || model.get("height");
        delete layout.width;
        await Plotly.react(plot, figure.data || [], layout, { displaylogo: false, responsive: true });
        el.dataset.revision = String(revision);
        el.dataset.state = model.get("note") ? "stale" : "drawn";
        showOverlay();
      } while (again && alive);
    } catch (error) {
      fail(String(error && error.message ? error.message : error));
    } finally {
      drawing = false;
    }
  }

  const redraw = () => { draw(); };
  model.on("change:figure", redraw);
  model.on("change:revision", redraw);
  model.on("change:height", redraw);
  model.on("change:note", showOverlay);
  model.on("change:pending", showOverlay);

  const resize = new ResizeObserver(() => {
    if (!Plotly || plot.offsetWidth === 0) return;
    if (Number(el.dataset.revision) !== model.get("revision")) draw();
    else Plotly.Plots.resize(plot);
  });
  resize.observe(plot);

  plot.style.minHeight = (model.get("height") || 300) + "px";
  overlay.textContent = "loading the chart library…";
  overlay.style.display = "flex";
  const slow = setTimeout(() => {
    if (!Plotly) overlay.textContent = "still waiting for the chart library from the server…";
  }, 20000);
  const retry = setInterval(() => { if (!Plotly) plotlyLibrary(model); }, 16000);
  entry.promise.then((lib) => {
    Plotly = lib;
    el.classList.remove("explorer-chart-loading");
    clearTimeout(slow);
    clearInterval(retry);
    showOverlay();
    draw();
  }, (error) => {
    clearTimeout(slow);
    clearInterval(retry);
    fail(String(error && error.message ? error.message : error));
  });

  return () => {
    alive = false;
    clearTimeout(slow);
    clearInterval(retry);
    resize.disconnect();
    model.off("msg:custom", onMessage);
    model.off("change:figure", redraw);
    model.off("change:revision", redraw);
    model.off("change:height", redraw);
    model.off("change:note", showOverlay);
    model.off("change:pending", showOverlay);
    if (Plotly) Plotly.purge(plot);
  };
}

export default { render };
