// The vkherd playground: fills the page from /api/catalog, sends the test to /api/run
// (or /api/diff, /api/diy) and shows the answer. Plain DOM, no build step; every text
// from the server or the test goes in through textContent.
"use strict";

const $ = (id) => document.getElementById(id);
let catalog = null;

// --- small DOM helpers ------------------------------------------------------------

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c != null) e.append(c);
  }
  return e;
}

function setStatus(status, text) {
  $("result").dataset.status = status;
  $("status").textContent = text;
}

// --- the editor: line numbers, and an error marked at its line ---------------------

function renderGutter(errorLine) {
  const lines = $("source").value.split("\n").length;
  const gutter = $("gutter");
  gutter.textContent = "";
  for (let n = 1; n <= lines; n++) {
    const span = el("span", { "data-line": String(n), text: String(n) });
    if (n === errorLine) span.className = "error";
    gutter.append(span);
  }
  gutter.scrollTop = $("source").scrollTop;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
  $("editor").dataset.errorLine = "";
  renderGutter(0);
}

// Shows an error object ({"error": {location, line, column, message}, "text"}), marking
// its line in the editor and putting the cursor at its column.
function showError(body, inEditor) {
  const e = body.error || { message: "unknown error" };
  $("error").hidden = false;
  $("error").textContent = body.text || ("error: " + e.message);
  if (inEditor && e.line) {
    $("editor").dataset.errorLine = String(e.line);
    renderGutter(e.line);
    const src = $("source");
    const lines = src.value.split("\n");
    let offset = 0;
    for (let k = 0; k < e.line - 1 && k < lines.length; k++) offset += lines[k].length + 1;
    offset += Math.max(0, (e.column || 1) - 1);
    src.focus({ preventScroll: true });
    src.setSelectionRange(offset, offset);
    const lineHeight = parseFloat(getComputedStyle(src).lineHeight) || 19;
    src.scrollTop = Math.max(0, (e.line - 5) * lineHeight);
    renderGutter(e.line);
  }
}

// --- the options of a run ----------------------------------------------------------

function modelVariants() {
  const name = $("model").value;
  if (!name) return catalog.default_variants;
  const m = catalog.models.find((m) => m.name === name);
  return m ? m.variants : [];
}

function renderVariants(checked) {
  const box = $("variants");
  box.textContent = "";
  const list = modelVariants();
  if (list.length) box.append(el("span", { class: "legend", text: "Variants:" }));
  for (const v of list) {
    const input = el("input", { type: "checkbox", value: v, "data-variant": v });
    input.checked = (checked || []).includes(v);
    box.append(el("label", {}, input, " " + v));
  }
}

function currentOptions() {
  const num = (id) => {
    const v = $(id).value.trim();
    return v === "" ? null : Number(v);
  };
  const o = {
    model: $("model").value || null,
    variants: [...$("variants").querySelectorAll("input:checked")].map((i) => i.value),
    unroll: num("unroll"),
    no_thin_air: $("no-thin-air").checked,
    liveness: $("liveness").checked,
    progress: $("progress").value.trim() || null,
    timeout: num("timeout"),
    max_candidates: num("max-candidates"),
  };
  for (const k of Object.keys(o)) if (o[k] === null) delete o[k];
  return o;
}

function applyOptions(o) {
  o = o || {};
  $("model").value = o.model || "";
  renderVariants(o.variants);
  $("unroll").value = o.unroll ?? "";
  $("no-thin-air").checked = !!o.no_thin_air;
  $("liveness").checked = !!o.liveness;
  $("progress").value = o.progress || "";
  $("timeout").value = o.timeout ?? "";
  $("max-candidates").value = o.max_candidates ?? "";
}

// --- requests ----------------------------------------------------------------------

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    return { status: 0, body: { error: { message: "the server cannot be reached: " + e.message } } };
  }
  let json;
  try {
    json = await response.json();
  } catch (e) {
    json = { error: { message: "the server's answer is not JSON (" + response.status + ")" } };
  }
  return { status: response.status, body: json, retryAfter: response.headers.get("Retry-After") };
}

function failed(r, what) {
  if (r.status === 503) {
    setStatus("busy", "The server is busy (" + r.body.error.message + "). Retry in " + (r.retryAfter || "a few") + " s.");
  } else {
    setStatus("error", what + " failed: " + (r.body.error ? r.body.error.message : "HTTP " + r.status));
  }
}

function busy(on) {
  for (const id of ["run", "diff", "diy"]) $(id).disabled = on;
}

async function run() {
  clearError();
  busy(true);
  setStatus("running", "Running…");
  $("output").textContent = "";
  const r = await post("/api/run", {
    test: $("source").value,
    file: $("file").value,
    options: currentOptions(),
    graphs: true,
    explain: true,
  });
  busy(false);
  if (r.status === 200) {
    await showRun(r.body);
  } else {
    if (r.body.error && r.body.error.line) showError(r.body, true);
    else if (r.body.text) showError(r.body, false);
    failed(r, "The run");
  }
}

async function diff() {
  clearError();
  busy(true);
  setStatus("running", "Running under both models…");
  $("output").textContent = "";
  const o = currentOptions();
  delete o.model;
  delete o.variants;
  const r = await post("/api/diff", {
    test: $("source").value,
    file: $("file").value,
    a: $("diff-a").value.trim(),
    b: $("diff-b").value.trim(),
    options: o,
  });
  busy(false);
  if (r.status === 200) showDiff(r.body);
  else {
    if (r.body.error && r.body.error.line) showError(r.body, true);
    else if (r.body.text) showError(r.body, false);
    failed(r, "The diff");
  }
}

async function diy() {
  clearError();
  busy(true);
  setStatus("running", "Generating…");
  const r = await post("/api/diy", { cycle: $("cycle").value, dialect: $("diy-dialect").value });
  busy(false);
  if (r.status === 200) {
    setSource(r.body.test, (r.body.name || "diy") + ".litmus");
    $("example").value = "";
    setStatus("idle", "Generated " + r.body.name + " from the cycle; Run it.");
  } else {
    if (r.body.text) showError(r.body, false);
    failed(r, "diy");
  }
}

// --- showing a run -----------------------------------------------------------------

function verdictWord(report) {
  return report.verdict_final ? report.verdict : "??";
}

function showVerdict(out, report) {
  const word = verdictWord(report);
  const kind = report.verdict_final ? report.verdict : "open";
  out.append(
    el("div", { class: "verdict " + kind, "data-verdict": word },
      el("span", { class: "word", text: word }),
      el("span", { class: "name", text: report.name }),
      el("span", { class: "cond", text: report.kind + " " + report.condition }),
      report.partial ? el("span", { text: "(partial: stopped by a limit)" }) : null,
      report.flag_data_race ? el("span", { text: "Flag data-race" }) : null),
  );
  if (report.notes.length) {
    out.append(el("ul", { class: "notes" }, ...report.notes.map((n) => el("li", { text: n }))));
  }
}

function statesTable(report) {
  const states = report.states || [];
  const columns = states.length ? Object.keys(states[0].values) : [];
  const head = el("tr", {}, ...columns.map((c) => el("th", { text: c })),
    el("th", { text: "count" }), el("th", { text: "marks" }));
  const rows = states.map((s) => {
    const marks = [s.racy_only ? "racy" : null, s.thin_air_only ? "thin-air" : null].filter(Boolean);
    return el("tr", { "data-racy": String(s.racy_only), "data-thin-air": String(s.thin_air_only) },
      ...columns.map((c) => el("td", { text: String(s.values[c]) })),
      el("td", { text: s.count == null ? "?" : String(s.count) }),
      el("td", { class: "mark", text: marks.join(", ") }));
  });
  return el("table", { class: "states" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

function statsTable(report) {
  const s = report.stats || {};
  const rows = [
    ["candidates", s.candidates], ["consistent", s.consistent], ["pruned (estimate)", s.pruned],
    ["thin air", s.thin_air], ["deadlocked paths", s.deadlocked_paths], ["dropped paths (unroll)", s.dropped_paths],
    ["seconds", s.seconds == null ? "" : s.seconds.toFixed(4)],
    ["positive / negative", (report.positive ?? "?") + " / " + (report.negative ?? "?")],
    ["model", report.model + (report.variants.length ? " + " + report.variants.join(", ") : "")],
    ["unroll", report.unroll],
  ];
  return el("table", { class: "stats" },
    el("tbody", {}, ...rows.map(([k, v]) => el("tr", {}, el("td", { text: k }), el("td", { text: String(v) })))));
}

function showLiveness(out, l) {
  out.append(el("h2", { text: "Liveness" }));
  const box = el("div", { class: "liveness " + l.verdict, "data-liveness": l.verdict },
    el("p", { text: "Liveness: " + l.verdict + " under progress model " + l.progress_text +
      " (" + l.combinations + " path combinations)" }));
  if (l.reason) box.append(el("p", { text: l.reason }));
  if (l.threads.length) {
    box.append(el("p", { text: "Invocations that do not terminate:" }));
    box.append(el("ul", {}, ...l.threads.map((t) =>
      el("li", { text: t.text || (t.thread + " " + t.ending) }))));
  }
  out.append(box);
}

let vizInstance = null;
function viz() {
  if (!vizInstance) {
    if (!window.Viz) return Promise.reject(new Error("Viz.js did not load"));
    vizInstance = window.Viz.instance();
  }
  return vizInstance;
}

async function drawFigures(container, figures) {
  for (const f of figures) {
    const fig = el("figure", { class: "graph" }, el("figcaption", { text: f.caption }));
    container.append(fig);
    try {
      const v = await viz();
      fig.append(v.renderSVGElement(f.dot));
    } catch (e) {
      fig.append(el("p", { text: "This graph could not be drawn (" + e.message + "); its DOT source:" }),
        el("pre", { class: "text", text: f.dot }));
    }
  }
}

async function showRun(answer) {
  const report = answer.report;
  const out = $("output");
  out.textContent = "";
  showVerdict(out, report);
  out.append(el("h2", { text: report.states ? "States (" + report.states.length + ")" : "States" }));
  if (report.states) out.append(statesTable(report));
  out.append(el("h2", { text: "Statistics" }), statsTable(report));
  if (report.liveness) showLiveness(out, report.liveness);
  const ex = answer.explanation;
  const explained = el("div", { id: "explanation" });
  const reasons = el("div", { class: "reasons" });
  if (ex) {
    out.append(el("h2", { text: "Explanation of the states the condition asks about" }), explained);
    if (ex.error) explained.append(el("p", { text: ex.error }));
    explained.append(reasons);
    if (ex.text) {
      explained.append(el("details", {}, el("summary", { text: "In words (vkherd explain)" }),
        el("pre", { class: "text", text: ex.text })));
    }
  }
  const graphs = el("div", { id: "graphs" });
  const g = answer.graphs;
  if (g) {
    out.append(el("h2", { text: "Witness executions" }), graphs);
    if (g.error) graphs.append(el("p", { text: g.error }));
    if (g.left_out) graphs.append(el("p", { text: g.left_out + " more witnesses not drawn." }));
  }
  out.append(el("details", {}, el("summary", { text: "As the command line prints it" }),
    el("pre", { class: "text", id: "herd-text", text: answer.text })));
  out.append(el("details", {}, el("summary", { text: "JSON (vkherd --json)" }),
    el("pre", { class: "text", text: JSON.stringify(report, null, 2) })));
  setStatus("done", "Done: " + report.name + " in " + (report.stats && report.stats.seconds != null ? report.stats.seconds.toFixed(3) + " s" : "?") + ".");
  if (ex && ex.figures.length) await drawFigures(reasons, ex.figures);
  if (g && g.figures.length) await drawFigures(graphs, g.figures);
  $("result").dataset.drawn = "true";
}

function showDiff(answer) {
  const d = answer.diff;
  const out = $("output");
  out.textContent = "";
  const a = $("diff-a").value.trim(), b = $("diff-b").value.trim();
  const changed = d.only_a.length || d.only_b.length || d.verdict_change;
  out.append(el("div", { class: "verdict " + (changed ? "No" : "Ok"), "data-diff": changed ? "differ" : "same" },
    el("span", { class: "word", text: changed ? "differ" : "same" }),
    el("span", { text: answer.a.name + ": " + a + " against " + b })));
  const list = (title, states) => {
    out.append(el("h2", { text: title + " (" + states.length + ")" }));
    if (states.length) out.append(el("ul", { class: "only" }, ...states.map((s) => el("li", { text: s }))));
  };
  list("Only " + a + " allows", d.only_a);
  list("Only " + b + " allows", d.only_b);
  out.append(el("p", { text: "Verdict: " + (d.verdict_final_a ? d.verdict_a : "open") + " under " + a + ", " +
    (d.verdict_final_b ? d.verdict_b : "open") + " under " + b + (d.verdict_change ? " (changes)" : "") }));
  if (d.partial) out.append(el("p", { text: "A run was stopped by a limit: " + d.unsettled_a + " and " + d.unsettled_b + " states unsettled." }));
  for (const [name, r] of [[a, answer.a], [b, answer.b]]) {
    out.append(el("h2", { text: "Under " + name }));
    showVerdict(out, r);
    if (r.states) out.append(statesTable(r));
  }
  setStatus("done", "Done: diff of " + answer.a.name + ".");
}

// --- the editor's text, examples, links --------------------------------------------

function setSource(text, file) {
  $("source").value = text;
  if (file) $("file").value = file;
  clearError();
  $("source").scrollTop = 0;
}

async function loadExample(path) {
  if (!path) return;
  const response = await fetch("/api/example/" + path.split("/").map(encodeURIComponent).join("/"));
  if (!response.ok) {
    setStatus("error", "The example " + path + " could not be loaded.");
    return;
  }
  setSource(await response.text(), "litmus-tests/" + path);
  const ex = catalog.examples.find((e) => e.path === path);
  $("dialect").textContent = ex && ex.dialect ? "dialect: " + ex.dialect : "";
}

function fillExamples() {
  const dialect = $("dialect-filter").value;
  const select = $("example");
  const keep = select.value;
  select.textContent = "";
  select.append(el("option", { value: "", text: "— pick an example (" + catalog.examples.length + ") —" }));
  const groups = new Map();
  for (const e of catalog.examples) {
    if (dialect && e.dialect !== dialect) continue;
    const dir = e.path.includes("/") ? e.path.slice(0, e.path.lastIndexOf("/")) : ".";
    if (!groups.has(dir)) groups.set(dir, el("optgroup", { label: dir }));
    groups.get(dir).append(el("option", { value: e.path, text: e.name || e.path }));
  }
  for (const g of groups.values()) select.append(g);
  select.value = keep;
}

// A link carries the test, its file name and the options in the fragment (never sent
// to the server), deflated where the browser can.
function toBase64Url(bytes) {
  let s = "";
  for (let k = 0; k < bytes.length; k += 0x8000) s += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

async function shareLink() {
  const state = { test: $("source").value, file: $("file").value, options: currentOptions() };
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let fragment;
  if (window.CompressionStream) {
    fragment = "z=" + toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")));
  } else {
    fragment = "j=" + toBase64Url(bytes);
  }
  const url = location.origin + location.pathname + "#" + fragment;
  history.replaceState(null, "", "#" + fragment);
  $("link").hidden = false;
  $("link").value = url;
  $("link").select();
  try {
    await navigator.clipboard.writeText(url);
    setStatus($("result").dataset.status, "Link copied: it reproduces this run.");
  } catch (e) {
    // No clipboard (an insecure origin): the link is selected in its field.
  }
}

async function readLink() {
  const hash = location.hash.slice(1);
  const m = /^([zj])=(.+)$/.exec(hash);
  if (!m) return false;
  try {
    let bytes = fromBase64Url(m[2]);
    if (m[1] === "z") bytes = await pipe(bytes, new DecompressionStream("deflate-raw"));
    const state = JSON.parse(new TextDecoder().decode(bytes));
    setSource(String(state.test || ""), state.file || "input.litmus");
    const path = String(state.file || "").replace(/^litmus-tests\//, "");
    if (catalog.examples.some((e) => e.path === path)) $("example").value = path;
    applyOptions(state.options);
    return true;
  } catch (e) {
    setStatus("error", "This link could not be read: " + e.message);
    return false;
  }
}

// --- start -------------------------------------------------------------------------

async function start() {
  const response = await fetch("/api/catalog");
  catalog = await response.json();
  $("version").textContent = "vkherd " + catalog.vkherd;
  for (const d of catalog.dialects) {
    $("dialect-filter").append(el("option", { value: d, text: d }));
    $("diy-dialect").append(el("option", { value: d, text: d }));
  }
  if (catalog.dialects.includes("vulkan")) $("diy-dialect").value = "vulkan";
  for (const m of catalog.models) {
    $("model").append(el("option", { value: m.name, text: m.name, title: m.doc }));
    $("model-specs").append(el("option", { value: m.name }));
    for (const v of m.variants) $("model-specs").append(el("option", { value: m.name + "+" + v }));
  }
  for (const p of catalog.progress) $("progress-models").append(el("option", { value: p }));
  $("unroll").placeholder = String(catalog.defaults.unroll);
  $("unroll").max = String(catalog.limits.max_unroll);
  $("timeout").placeholder = catalog.limits.timeout_seconds + " (max)";
  $("max-candidates").placeholder = catalog.limits.max_candidates + " (max)";
  fillExamples();
  renderVariants([]);

  $("dialect-filter").addEventListener("change", fillExamples);
  $("example").addEventListener("change", () => loadExample($("example").value));
  $("model").addEventListener("change", () => renderVariants([]));
  $("run").addEventListener("click", run);
  $("diff").addEventListener("click", diff);
  $("diy").addEventListener("click", diy);
  $("share").addEventListener("click", shareLink);
  const src = $("source");
  src.addEventListener("input", () => renderGutter(0));
  src.addEventListener("scroll", () => { $("gutter").scrollTop = src.scrollTop; });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      run();
    }
  });
  window.addEventListener("hashchange", async () => {
    if (await readLink()) run();
  });
  // A shared link runs at once; otherwise the page opens on the first example.
  if (await readLink()) {
    run();
  } else {
    const first = catalog.examples.find((e) => e.path.startsWith("mp/")) || catalog.examples[0];
    if (first) {
      $("example").value = first.path;
      await loadExample(first.path);
    }
    renderGutter(0);
    $("result").dataset.status = "ready";
  }
}

start().catch((e) => setStatus("error", "The page could not start: " + e.message));
