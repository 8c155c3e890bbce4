"""The self-contained HTML page served at GET /.

No external resources. Recorded data reaches the page two ways, both safe
against markup in request bodies:
  * embedded at render time as JSON inside <script type="application/json">,
    with <, > and & written as \\u escapes so no body can close the element;
  * fetched every 2 s from /_sandbox/requests and inserted with textContent
    (the script never uses innerHTML).
"""

from __future__ import annotations

import json
from typing import Any, Optional

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'"
)


def embed_json(value: Any) -> str:
    """JSON that is safe inside a <script> element. The escaped characters
    can only occur inside JSON strings, where \\uXXXX means the same thing."""
    text = json.dumps(value, ensure_ascii=False)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def render(requests: list[dict[str, Any]], profiles: Optional[list[dict[str, Any]]] = None,
           in_app: Optional[dict[str, Any]] = None) -> bytes:
    """The page with the data it starts from; `in_app` is the campaigns
    snapshot merged with the recorded reports (`impressions`)."""
    page = _PAGE.replace("__INITIAL_IN_APP__", embed_json(in_app or {}))
    page = page.replace("__INITIAL_PROFILES__", embed_json(profiles or []))
    return page.replace("__INITIAL_REQUESTS__", embed_json(requests)).encode("utf-8")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Joryio sandbox</title>
<style>
  :root { color-scheme: light dark; --line: #8884; --muted: #888; }
  body { font: 14px/1.4 -apple-system, system-ui, sans-serif; margin: 0 1.5rem 2rem; }
  header { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; padding: 1rem 0; }
  h1 { font-size: 1.2rem; margin: 0; }
  h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
  .muted { color: var(--muted); }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
  th { font-weight: 600; }
  tr.req { cursor: pointer; }
  tr.req:hover { background: #8881; }
  td.path { white-space: normal; word-break: break-all; font-family: ui-monospace, monospace; }
  .ok { color: #2a8a3a; } .err { color: #c0392b; } .pending { color: var(--muted); }
  pre { margin: 0; padding: .6rem; background: #8881; overflow: auto; max-height: 30rem;
        font: 12px/1.35 ui-monospace, monospace; }
  input { font: inherit; padding: .2rem .4rem; }
  iframe.preview { width: 260px; height: 300px; border: 1px solid var(--line); border-radius: 8px; }
</style>
</head>
<body>
<header>
  <h1>Joryio sandbox</h1>
  <label>Path filter <input id="filter" placeholder="/api/v1/events or /api/*"></label>
  <label><input type="checkbox" id="paused"> Pause</label>
  <button id="reset" type="button">Reset sandbox</button>
  <span id="status" class="muted"></span>
</header>
<table>
  <thead><tr><th>#</th><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th>Fault</th>
  <th>Size</th><th>Gzip</th></tr></thead>
  <tbody id="rows"></tbody>
</table>
<h2>Push tokens</h2>
<table>
  <thead><tr><th>Profile</th><th>User</th><th>Anonymous ids</th><th>Token</th><th>Environment</th>
  <th>Permission</th><th>Bundle</th><th>Registered</th></tr></thead>
  <tbody id="tokens"><tr><td colspan="8" class="muted">No push tokens registered.</td></tr></tbody>
</table>
<h2>In-app campaigns</h2>
<p id="in-app-mode" class="muted"></p>
<table>
  <thead><tr><th>Campaign</th><th>Type</th><th>Target</th><th>Triggers</th><th>Priority</th><th>Displayed</th>
  <th>Clicked</th><th>Dismissed</th><th>Converted</th><th>Forms</th><th>Preview</th></tr></thead>
  <tbody id="campaigns"><tr><td colspan="11" class="muted">No in-app campaigns.</td></tr></tbody>
</table>
<script id="initial-in-app" type="application/json">__INITIAL_IN_APP__</script>
<script id="initial-profiles" type="application/json">__INITIAL_PROFILES__</script>
<script id="initial-requests" type="application/json">__INITIAL_REQUESTS__</script>
<script>
"use strict";
const rows = document.getElementById("rows");
const statusLine = document.getElementById("status");
const filterInput = document.getElementById("filter");
const expanded = new Set();

function cell(tr, text, className) {
  const td = document.createElement("td");
  td.textContent = text == null ? "" : String(text);
  if (className) td.className = className;
  tr.appendChild(td);
}

// A table's one row when it has nothing to show: `text` across all `columns`.
function emptyRow(text, columns) {
  const tr = document.createElement("tr");
  cell(tr, text, "muted");
  tr.firstChild.colSpan = columns;
  return tr;
}

function size(r) {
  const body = r.bodyBytes == null ? "?" : r.bodyBytes;
  return r.gzip ? body + " B (" + r.rawBytes + " B gzip)" : body + " B";
}

function detail(r) {
  const tr = document.createElement("tr");
  const td = document.createElement("td");
  td.colSpan = 8;
  const pre = document.createElement("pre");
  const body = r.body != null ? JSON.stringify(r.body, null, 2)
             : r.bodyText != null ? r.bodyText : "(no body)";
  const headers = Object.entries(r.headers || {}).map(([k, v]) => k + ": " + v).join("\\n");
  pre.textContent = [r.query ? "?" + r.query : "", headers, body].filter(Boolean).join("\\n\\n");
  td.appendChild(pre);
  tr.appendChild(td);
  return tr;
}

function render(requests) {
  const filter = filterInput.value.trim();
  const shown = requests.filter(r => !filter ||
    (filter.endsWith("*") ? r.path.startsWith(filter.slice(0, -1)) : r.path === filter));
  rows.replaceChildren();
  for (const r of shown.slice().reverse()) {
    const tr = document.createElement("tr");
    tr.className = "req";
    cell(tr, r.seq);
    cell(tr, r.receivedAt);
    cell(tr, r.method);
    cell(tr, r.path, "path");
    cell(tr, r.status == null ? (r.fault === "drop" ? "dropped" : "…") : r.status,
         r.status == null ? "pending" : r.status < 300 ? "ok" : "err");
    cell(tr, r.fault);
    cell(tr, size(r));
    cell(tr, r.gzip ? "yes" : "");
    tr.addEventListener("click", () => {
      expanded.has(r.seq) ? expanded.delete(r.seq) : expanded.add(r.seq);
      render(requests);
    });
    rows.appendChild(tr);
    if (expanded.has(r.seq)) rows.appendChild(detail(r));
  }
  statusLine.textContent = shown.length + " of " + requests.length + " requests · updated " +
    new Date().toLocaleTimeString();
}

let latest = JSON.parse(document.getElementById("initial-requests").textContent);
const tokenRows = document.getElementById("tokens");

function renderTokens(profiles) {
  const rowsOut = [];
  for (const p of profiles) {
    for (const t of p.pushTokens || []) {
      const tr = document.createElement("tr");
      cell(tr, p.id);
      cell(tr, p.userId);
      cell(tr, (p.anonymousIds || []).join(", "));
      cell(tr, t.token, "path");
      cell(tr, t.environment);
      cell(tr, t.permission);
      cell(tr, t.bundleId);
      cell(tr, t.registeredAt);
      rowsOut.push(tr);
    }
  }
  if (rowsOut.length === 0) rowsOut.push(emptyRow("No push tokens registered.", 8));
  tokenRows.replaceChildren(...rowsOut);
}

const campaignRows = document.getElementById("campaigns");
// Each campaign's row, with its live preview: the SDK's own document and policy, served by
// /_sandbox/in-app/preview (preview.py); sandbox="allow-scripts" (no allow-same-origin) keeps the
// bridge running but away from this page. Moving an iframe in the DOM reloads it, so a campaign's
// row is kept (and stays in place) while the campaign is unchanged; the 2 s refresh only rewrites
// its count cells.
const COUNT_KINDS = ["displayed", "clicked", "dismissed", "converted", "forms"];
const campaignRowsById = new Map();

function campaignRow(entry) {
  const c = entry.campaign || {};
  const key = JSON.stringify(entry);
  const kept = campaignRowsById.get(c.id);
  if (kept && kept.key === key) return kept;
  const tr = document.createElement("tr");
  cell(tr, c.id, "path");
  cell(tr, c.type);
  cell(tr, entry.target ? JSON.stringify(entry.target) : "everyone");
  cell(tr, Array.isArray(c.triggers) ? c.triggers.map(t => t && t.type).join(", ") : "onSync");
  cell(tr, c.priority);
  const counts = COUNT_KINDS.map(() => { cell(tr, 0); return tr.lastChild; });
  if (c.id != null) {
    const frame = document.createElement("iframe");
    frame.className = "preview";
    frame.setAttribute("sandbox", "allow-scripts");
    frame.title = "Preview of " + c.id;
    frame.src = "/_sandbox/in-app/preview?id=" + encodeURIComponent(c.id);
    const td = document.createElement("td");
    td.appendChild(frame);
    tr.appendChild(td);
  } else {
    cell(tr, "");
  }
  const row = { key, tr, counts };
  campaignRowsById.set(c.id, row);
  return row;
}

function renderCampaigns(inApp) {
  const impressions = inApp.impressions || {};
  const settings = inApp.settings || {};
  document.getElementById("in-app-mode").textContent =
    (settings.requireDeliveryToken ? "Delivery tokens required" : "Token-less reports accepted") +
    (settings.tokenTtl ? " · tokens live " + settings.tokenTtl + " s" : "");
  const shown = new Set();
  const rowsOut = [];
  for (const entry of inApp.campaigns || []) {
    const row = campaignRow(entry);
    const counts = impressions[(entry.campaign || {}).id] || {};
    COUNT_KINDS.forEach((kind, index) => { row.counts[index].textContent = String(counts[kind] || 0); });
    shown.add((entry.campaign || {}).id);
    rowsOut.push(row.tr);
  }
  for (const id of campaignRowsById.keys()) if (!shown.has(id)) campaignRowsById.delete(id);
  if (rowsOut.length === 0) rowsOut.push(emptyRow("No in-app campaigns.", 11));
  const current = campaignRows.children;
  const unchanged = rowsOut.length === current.length && rowsOut.every((tr, index) => current[index] === tr);
  if (!unchanged) campaignRows.replaceChildren(...rowsOut);
}

async function refreshInApp() {
  const campaigns = await (await fetch("/_sandbox/in-app/campaigns", { cache: "no-store" })).json();
  const reports = await (await fetch("/_sandbox/in-app/reports", { cache: "no-store" })).json();
  renderCampaigns(Object.assign(campaigns, reports));
}

async function refresh() {
  if (document.getElementById("paused").checked) return;
  try {
    const response = await fetch("/_sandbox/requests", { cache: "no-store" });
    latest = (await response.json()).requests;
    render(latest);
    const profiles = await fetch("/_sandbox/profiles", { cache: "no-store" });
    renderTokens((await profiles.json()).profiles);
    await refreshInApp();
  } catch (error) {
    statusLine.textContent = "sandbox unreachable: " + error;
  }
}

document.getElementById("reset").addEventListener("click", async () => {
  await fetch("/_sandbox/reset", { method: "POST" });
  expanded.clear();
  refresh();
});
filterInput.addEventListener("input", () => render(latest));
render(latest);
renderTokens(JSON.parse(document.getElementById("initial-profiles").textContent));
renderCampaigns(JSON.parse(document.getElementById("initial-in-app").textContent));
setInterval(refresh, 2000);
</script>
</body>
</html>
"""
