// Shared helpers of every page, loaded first: building the DOM without ever parsing markup, and
// talking to the server's JSON API.
//
// Why: names, log lines, card texts and error messages come from the server and from other
// players. Handing such text to the HTML parser would let it become elements and script. Here data
// only ever becomes text nodes or attribute values, and the pages run under a strict
// Content-Security-Policy: no inline script or style, so colours are set through element.style
// (the CSS object model), never through a style attribute.
"use strict";

const $ = (id) => document.getElementById(id);

// Attributes that load or navigate: only http(s) and relative URLs may go there.
const URL_ATTRS = new Set(["href", "src", "action", "formaction"]);
// Set as DOM properties, so a false value really means off.
const PROPS = new Set(["disabled", "checked", "selected", "value", "readOnly", "open", "hidden"]);

function safeUrl(value) {
  const s = String(value);
  const u = new URL(s, location.href);
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`refusing the URL ${s}`);
  return s;
}

function setStyle(el, prop, value) {
  if (value === null || value === undefined) return;
  if (prop.startsWith("--")) el.style.setProperty(prop, String(value));
  else el.style[prop] = String(value);
}

// Children may be nodes, strings and numbers (as text), arrays of them, or null/false (skipped).
function nodes(children, out = []) {
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === true) continue;
    if (Array.isArray(c)) nodes(c, out);
    else out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

// h("a", {class: "x", href: "/game/1", onclick: fn, style: {color: c}, dataset: {seat: 1}}, "text", child)
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : String(v);
    else if (k === "style") { for (const [p, val] of Object.entries(v)) setStyle(el, p, val); }
    else if (k === "dataset") { for (const [d, val] of Object.entries(v)) el.dataset[d] = String(val); }
    else if (k.startsWith("on")) {
      // Handlers are functions only: a string here would be inline script, which the CSP forbids.
      if (typeof v !== "function") throw new Error(`${k} must be a function`);
      el.addEventListener(k.slice(2), v);
    } else if (PROPS.has(k)) el[k] = v;
    else if (v === false) continue;
    else if (URL_ATTRS.has(k)) el.setAttribute(k, safeUrl(v));
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  el.append(...nodes(children));
  return el;
}

// Replace everything inside el with the given children (same rules as h()).
function fill(el, ...children) {
  el.replaceChildren(...nodes(children));
  return el;
}

// ------------------------------------------------------------------ the server's JSON API

// The server's errors are {"error": "...", "rule": "MOVE-4" | null}: the rule ID goes first.
function errorText(data, fallback) {
  const msg = data && typeof data.error === "string" && data.error ? data.error : fallback;
  return data && data.rule ? `[${data.rule}] ${msg}` : msg;
}

class ApiError extends Error {
  constructor(status, data, fallback) {
    super(errorText(data, fallback));
    this.status = status;
    this.data = data;
  }
}

// JSON in, JSON out; a failed request throws ApiError with the status and the server's text.
async function apiCall(method, path, body) {
  const res = await fetch(path, {
    method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data, `${method} ${path}: HTTP ${res.status}`);
  return data;
}

// A link the server hands us must stay on this site: a path such as "/game/ID?seat=T".
function sitePath(link, fallback) {
  return typeof link === "string" && link.startsWith("/") && !link.startsWith("//") ? link : fallback;
}
