"use strict";
// Draws the trace from the inline JSON. Every text from the trace is set
// with textContent (the program and the tools' errors are untrusted). Once
// laid out, each bar and chunk mark records where the browser put it
// (data-x, data-w: pixels from the left of its track), so a test can check
// the picture against the trace.
(function () {
  const d = JSON.parse(document.getElementById("spine-trace").textContent);
  const r = d.response;
  const calls = r.calls || [];
  const chunks = r.chunks || [];

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // A tool may be named like an Object property (__proto__, constructor).
  function sitesOf(tool) { return Object.prototype.hasOwnProperty.call(d.sites, tool) ? d.sites[tool] : []; }
  function fmt(ms) { return ms < 10 ? ms.toFixed(2) + " ms" : ms < 1000 ? ms.toFixed(1) + " ms" : (ms / 1000).toFixed(2) + " s"; }
  function section(title) { const s = el("section"); s.appendChild(el("h2", "", title)); document.body.appendChild(s); return s; }
  function kinds(c) {
    const k = [];
    if (c.args_truncated) k.push("refused");
    else if (c.error !== null) k.push("error");
    if (c.early) k.push("early");
    if (c.stream) k.push("stream");
    if (c.claimed) k.push("claimed");
    if (c.mismatch) k.push("mismatch");
    if (c.stale) k.push("stale");
    if (k.length === 0) k.push("plain");
    return k;
  }

  // Header: the outcome in one line.
  const head = el("h1");
  head.appendChild(el("span", "", "spine run " + (d.title || "") + " "));
  head.appendChild(el("span", "status " + r.status, r.status || "not run"));
  head.appendChild(el("span", "", "  " + fmt(r.elapsed_ms) + ", " + calls.length + " tool call" + (calls.length === 1 ? "" : "s") +
    (chunks.length ? ", streamed in " + chunks.length + " chunk" + (chunks.length === 1 ? "" : "s") : "")));
  document.body.appendChild(head);

  // The program, with the lines that call tools marked.
  const byLine = {};
  calls.forEach(function (c, i) {
    sitesOf(c.tool).forEach(function (line) { (byLine[line] = byLine[line] || []).push(i); });
  });
  const src = el("div");
  src.id = "source";
  d.source.forEach(function (text, i) {
    const n = i + 1;
    const row = el("div", "line");
    row.id = "line-" + n;
    row.dataset.line = n;
    row.appendChild(el("span", "no", String(n)));
    const code = el("span", "code", text);
    if (byLine[n]) {
      row.classList.add("called");
      row.dataset.calls = byLine[n].map(function (j) { return j + 1; }).join(" ");
      byLine[n].forEach(function (j) { code.appendChild(el("span", "badge", "#" + (j + 1) + " " + calls[j].tool)); });
    }
    if (r.error !== null && r.line === n) {
      row.classList.add("raised");
      code.appendChild(el("span", "badge raise", "raised"));
    }
    row.appendChild(code);
    src.appendChild(row);
  });
  section("Program").appendChild(src);

  // The waterfall.
  const fall = el("div");
  fall.id = "waterfall";
  const wf = section("Tool calls");
  const legend = el("div");
  legend.id = "legend";
  [["plain", "ran when the program reached it"], ["early", "started early (PLM)"], ["stream", "started while the program streamed in"],
   ["claimed", "early, result used"], ["mismatch", "prepared call did not match, ran again"], ["stale", "cancelled: an effect changed its input"],
   ["error", "raised at the call site"], ["refused", "refused by the host"]].forEach(function (p) {
    const s = el("span");
    const swatch = el("i", "bar " + p[0]);
    s.appendChild(swatch);
    s.appendChild(document.createTextNode(p[0] + ": " + p[1]));
    legend.appendChild(s);
  });
  wf.appendChild(legend);
  wf.appendChild(fall);

  const rows = [];
  function row(label, title) {
    const l = el("div", "label", label);
    if (title) l.title = title;
    const t = el("div", "track");
    fall.appendChild(l);
    fall.appendChild(t);
    return t;
  }
  function place(track, node, start, end, minWidth) {
    node.dataset.startMs = start;
    node.dataset.endMs = end;
    rows.push([track, node, start, end, minWidth]);
    track.appendChild(node);
  }

  const program = row("program", "the program's own execution");
  if (d.run_start_ms > 0) {
    const streaming = el("div", "bar run streaming");
    streaming.title = "arriving: " + fmt(d.run_start_ms);
    place(program, streaming, 0, d.run_start_ms, 1);
  }
  const run = el("div", "bar run");
  run.title = "ran " + fmt(r.elapsed_ms) + ": " + r.status;
  place(program, run, d.run_start_ms, d.run_start_ms + r.elapsed_ms, 1);

  if (chunks.length) {
    const t = row("chunks (" + chunks.length + ")", "when each chunk of the program arrived");
    chunks.forEach(function (c, i) {
      const mark = el("div", "chunk");
      mark.dataset.index = i;
      mark.title = "chunk " + (i + 1) + ": " + c.bytes + " bytes at " + fmt(c.at_ms);
      place(t, mark, c.at_ms, c.at_ms, 0);
    });
  }

  calls.forEach(function (c, i) {
    const lines = sitesOf(c.tool);
    const where = lines.length === 1 ? " (line " + lines[0] + ")" : lines.length ? " (lines " + lines.join(", ") + ")" : "";
    const t = row("#" + (i + 1) + " " + c.tool + where);
    const bar = el("div", "bar " + kinds(c).join(" "));
    bar.dataset.index = i;
    bar.dataset.tool = c.tool;
    bar.dataset.kinds = kinds(c).join(" ");
    const args = typeof c.args === "string" ? c.args : JSON.stringify(c.args);
    bar.title = "#" + (i + 1) + " " + c.tool + "(" + (args.length > 300 ? args.slice(0, 300) + "..." : args) + ")\n" +
      fmt(c.start_ms) + " .. " + fmt(c.end_ms) + "  [" + kinds(c).join(", ") + "]" + (c.error !== null ? "\n" + c.error : "");
    bar.addEventListener("click", function () {
      document.querySelectorAll(".line.focus").forEach(function (n) { n.classList.remove("focus"); });
      lines.forEach(function (n) { const line = document.getElementById("line-" + n); if (line) line.classList.add("focus"); });
    });
    place(t, bar, c.start_ms, c.end_ms, 3); // 3 px: a call of no time stays visible
  });

  fall.appendChild(el("div", "label", ""));
  const axis = el("div", "axis");
  fall.appendChild(axis);

  // Geometry: the time axis maps [0, total_ms] onto the track's width.
  const width = program.clientWidth;
  fall.dataset.width = width;
  fall.dataset.totalMs = d.total_ms;
  function x(ms) { return ms / d.total_ms * width; }
  rows.forEach(function (p) {
    const left = x(p[2]);
    p[1].style.left = left + "px";
    if (p[4] > 0) p[1].style.width = Math.max(x(p[3]) - left, p[4]) + "px";
  });
  for (let i = 0; i <= 4; i++) {
    const tick = el("div", "tick", fmt(d.total_ms * i / 4));
    tick.style.left = x(d.total_ms * i / 4) + "px";
    if (i === 4) tick.style.transform = "translateX(-100%)";
    axis.appendChild(tick);
  }

  // The outcome.
  const out = el("dl");
  function item(name, text, pre) {
    if (text === undefined || text === null || text === "") return;
    out.appendChild(el("dt", "", name));
    const dd = el("dd");
    dd.appendChild(pre ? el("pre", "", text) : document.createTextNode(text));
    out.appendChild(dd);
  }
  item("status", r.status);
  item("value", r.value === null ? "" : JSON.stringify(r.value, null, 2), true);
  item("error", r.error === null ? "" : r.error + (r.line ? " (line " + r.line + ")" : ""));
  item("traceback", r.traceback, true);
  item("stdout", r.stdout + (r.stdout_truncated ? "\n[truncated]" : ""), true);
  item("stderr", r.stderr + (r.stderr_truncated ? "\n[truncated]" : ""), true);
  item("emitted", (r.emitted || []).length ? JSON.stringify(r.emitted) : "", true);
  item("isolation", r.isolation);
  const result = section("Result");
  result.id = "result";
  result.appendChild(out);
  if (r.transformed) {
    const details = el("details");
    details.appendChild(el("summary", "", "the program as PLM rewrote it"));
    details.appendChild(el("pre", "", r.transformed));
    result.appendChild(details);
  }

  // Where the browser put each mark, once laid out.
  rows.forEach(function (p) {
    const trackBox = p[0].getBoundingClientRect();
    const box = p[1].getBoundingClientRect();
    p[1].dataset.x = (box.left - trackBox.left - p[0].clientLeft).toFixed(2);
    p[1].dataset.w = box.width.toFixed(2);
  });
  document.body.dataset.rendered = "true";
})();
