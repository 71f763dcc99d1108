// The RPCX service console: lists the services of this server from its OpenAPI document, shows a
// method's types and example arguments, calls it over HTTP/JSON and shows the reply, the status
// and the time taken. No framework and no build step; it talks to this server only.
"use strict";

const state = { document: null, selected: null };

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.substring(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function headers(json) {
  const result = {};
  if (json) result["content-type"] = "application/json";
  const token = document.getElementById("token").value.trim();
  if (token) result["authorization"] = "Bearer " + token;
  const timeout = document.getElementById("timeout").value.trim();
  if (timeout) result["rpcx-timeout"] = timeout;
  return result;
}

function pretty(value) {
  return JSON.stringify(value, null, 2);
}

async function load() {
  const nav = document.getElementById("services");
  nav.replaceChildren(el("p", { class: "note" }, "Loading the services…"));
  let response;
  try {
    response = await fetch(document.body.dataset.openapi, { headers: headers(false) });
  } catch (e) {
    nav.replaceChildren(el("p", { class: "note" }, "The server cannot be reached: " + e.message));
    return;
  }
  if (!response.ok) {
    let message = response.status + " " + response.statusText;
    try {
      const error = await response.json();
      message = error.status + ": " + error.message;
    } catch (e) { /* not JSON */ }
    nav.replaceChildren(
      el("p", { class: "note", id: "load-error" }, message),
      response.status === 401 ? el("p", { class: "note" }, "Type the token above, then Reload.") : null);
    return;
  }
  state.document = await response.json();
  render();
}

function render() {
  const nav = document.getElementById("services");
  nav.replaceChildren();
  for (const service of state.document["x-rpcx-services"]) {
    const list = el("ul");
    for (const method of service.methods) {
      const id = service.name + "/" + method.method;
      const button = el("button", {
        class: "method", type: "button", "data-method": id, disabled: !method.callable,
        title: method.callable ? method.signature : "takes a stream argument: call it over RPCX or gRPC",
        onclick: () => select(method),
      }, method.method, method.serverStream ? el("span", { class: "tag" }, "stream") : null);
      list.append(el("li", {}, button));
    }
    nav.append(el("h2", {}, service.name), list);
  }
  if (state.selected) {
    const again = findMethod(state.selected.service, state.selected.method);
    if (again) select(again);
  }
}

function findMethod(service, name) {
  for (const candidate of state.document["x-rpcx-services"]) {
    if (candidate.name !== service) continue;
    for (const method of candidate.methods) {
      if (method.method === name) return method;
    }
  }
  return null;
}

function select(method) {
  state.selected = method;
  const id = method.service + "/" + method.method;
  for (const button of document.querySelectorAll("nav button.method")) {
    button.classList.toggle("selected", button.dataset.method === id);
  }
  const parameters = el("tbody");
  for (const parameter of method.parameters) {
    parameters.append(el("tr", {}, el("td", {}, parameter.name), el("td", {}, el("code", {}, parameter.type))));
  }
  const details = [
    el("h2", { id: "method-name" }, id),
    el("p", { class: "signature" }, method.signature),
  ];
  if (method.parameters.length > 0) {
    details.push(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "type"))), parameters));
  }
  details.push(el("p", { id: "returns" }, "Returns ", el("code", {}, method.resultType),
    method.serverStream ? " (a stream: each element as it comes)" : "",
    method.declaredExceptions.length > 0 ? "; declares " + method.declaredExceptions.join(", ") : ""));
  const textarea = el("textarea", { id: "arguments", spellcheck: "false", "aria-label": "arguments" });
  textarea.value = pretty(method.example);
  const call = el("button", { id: "call", type: "button", onclick: () => invoke(method) }, "Call");
  details.push(
    el("label", { for: "arguments" }, "Arguments (a JSON array in parameter order, or an object by name)"),
    textarea,
    el("div", { class: "actions" }, call, el("span", { class: "note" }, "POST /" + id)),
    el("div", { id: "outcome" }));
  document.getElementById("method").replaceChildren(...details);
}

function showStatus(outcome, ok, text, started) {
  const elapsed = performance.now() - started;
  outcome.replaceChildren(
    el("span", { id: "status", class: ok ? "ok" : "failed" }, text),
    el("span", { id: "elapsed" }, elapsed.toFixed(1) + " ms"));
}

function showError(outcome, error) {
  outcome.append(el("dl", { class: "error", id: "error" },
    el("dt", {}, "status"), el("dd", { id: "error-status" }, error.status),
    el("dt", {}, "message"), el("dd", { id: "error-message" }, error.message),
    error.exceptionClass ? el("dt", {}, "exception") : null,
    error.exceptionClass ? el("dd", { id: "error-class" }, error.exceptionClass) : null));
}

async function invoke(method) {
  const outcome = document.getElementById("outcome");
  const button = document.getElementById("call");
  const body = document.getElementById("arguments").value;
  const path = "/" + encodeURIComponent(method.service) + "/" + encodeURIComponent(method.method);
  button.disabled = true;
  outcome.replaceChildren(el("span", { class: "note" }, "Calling…"));
  const started = performance.now();
  try {
    const response = await fetch(path, { method: "POST", headers: headers(true), body: body });
    if (!response.ok) {
      let error;
      try {
        error = await response.json();
      } catch (e) {
        error = { status: "HTTP " + response.status, message: response.statusText };
      }
      showStatus(outcome, false, response.status + " " + error.status, started);
      showError(outcome, error);
      return;
    }
    if (method.serverStream) {
      await readStream(response, outcome, started);
      return;
    }
    const reply = await response.json();
    showStatus(outcome, true, response.status + " OK", started);
    outcome.append(el("pre", { id: "reply" }, pretty(reply)));
  } catch (e) {
    showStatus(outcome, false, "failed", started);
    showError(outcome, { status: "NETWORK", message: e.message });
  } finally {
    button.disabled = false;
  }
}

async function readStream(response, outcome, started) {
  const reply = el("pre", { id: "reply" });
  showStatus(outcome, true, response.status + " OK, streaming", started);
  outcome.append(reply);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let count = 0;
  let failure = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = JSON.parse(buffered.substring(0, newline));
      buffered = buffered.substring(newline + 1);
      if (line.error) {
        failure = line.error;
      } else {
        count++;
        reply.append(pretty(line.result) + "\n");
      }
    }
  }
  showStatus(outcome, failure === null, response.status + (failure ? " " + failure.status : " OK")
    + ", " + count + (count === 1 ? " element" : " elements"), started);
  outcome.append(reply);
  if (failure) showError(outcome, failure);
}

document.getElementById("reload").addEventListener("click", load);
document.getElementById("settings").addEventListener("submit", (event) => { event.preventDefault(); load(); });
load();
