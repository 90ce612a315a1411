// The round diagram's front end: steps through one run's rounds without the kernel.
// Model state: `snapshot` (the trace when the widget was made), `patch` (the latest changed
// round, while the loop runs), and custom "rounds" messages (a catch-up the view asks for).

const STORES = new WeakMap();

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// every word the view shows comes from the trace (`words`, one language's column of words.py):
// this file only lays them out
const FIELD = /\{(\w+)\}/g;
const CUT = "…";

function template(w, key, count) {
  return (count === 1 && w[key + "/1"]) || w[key] || key;
}

function say(w, key, count, fields = {}) {
  const values = { count, ...fields };
  return template(w, key, count).replace(FIELD, (_, name) => String(values[name]));
}

// a sentence whose fields are nodes (a <code>, a <strong>): the words around them stay text
function sayNodes(w, key, count, fields = {}) {
  const values = { count, ...fields };
  return template(w, key, count).split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    return m && m[1] in values ? values[m[1]] : part;
  });
}

// JSON written as the Python views write it (", " and ": "), so every view shows the same input
function spaced(value) {
  if (Array.isArray(value)) return "[" + value.map(spaced).join(", ") + "]";
  if (value && typeof value === "object")
    return "{" + Object.entries(value).map(([k, v]) => JSON.stringify(k) + ": " + spaced(v)).join(", ") + "}";
  return JSON.stringify(value) ?? String(value);
}

function asText(value) {
  return typeof value === "string" ? value : spaced(value);
}

// one line, read aloud cleanly (the live summary)
function oneLine(value, limit) {
  const flat = asText(value).replace(/\s*\n\s*/g, " ");
  return flat.length > limit ? flat.slice(0, limit - 1) + CUT : flat;
}

// a text kept whole, whitespace and all; past `limit` characters the rest opens on a click
function cut(w, value, limit, cls = "ad-text") {
  const text = asText(value);
  if (text.length <= limit) return h("span", { class: cls }, text);
  const node = h("span", { class: cls }, text.slice(0, limit - 1));
  const more = h("button", { class: "ad-more", title: say(w, "more"), "aria-label": say(w, "more"),
    onclick: (ev) => { ev.stopPropagation(); node.replaceChildren(text); } }, CUT);
  node.append(more);
  return node;
}

// a tool call's input: JSON on one line, unless a value has several lines; then one field a line,
// a many-line value below its name, two spaces further in (an edit keeps its indentation);
// the same rule as input_text() in static_text.py
function inputText(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return asText(value);
  const entries = Object.entries(value);
  const multi = (v) => typeof v === "string" && v.includes("\n");
  if (!entries.some(([, v]) => multi(v))) return spaced(value);
  const indented = (v) => v.split(/\r\n|\r|\n/).filter((line, i, all) => i < all.length - 1 || line).map((line) => "  " + line);
  return entries.map(([k, v]) => (multi(v) ? [`${k}:`, ...indented(v)].join("\n") : `${k}: ${asText(v)}`)).join("\n");
}

// long ids wrap badly; the tail is enough to see which call a result answers
function idNode(id) {
  const text = String(id);
  return h("code", { class: "ad-id", title: text }, text.length > 14 ? CUT + text.slice(-8) : text);
}

// ---- the model-level store: survives views being re-created ---------------------------------

function storeFor(model) {
  let store = STORES.get(model);
  if (store) return store;
  store = { meta: {}, rounds: [], listeners: new Set(), asked: false };
  STORES.set(model, store);
  const changed = () => store.listeners.forEach((fn) => fn());
  const applyFull = (trace) => {
    if (!trace || !trace.rounds) return;
    const { rounds, ...meta } = trace;
    store.meta = { ...store.meta, ...meta };
    rounds.forEach((r) => (store.rounds[r.index - 1] = r));
  };
  const applyPatch = (patch) => {
    if (!patch || !patch.round) return;
    store.meta = { ...store.meta, ...patch.meta };
    store.rounds[patch.round.index - 1] = patch.round;
  };
  const fillGaps = () => {
    const missing = [];
    for (let i = 0; i < (store.meta.round_count || 0); i++) if (!store.rounds[i]) missing.push(i + 1);
    if (missing.length && !store.asked) {
      store.asked = true; // one request at a time; the kernel answers when it is idle
      model.send({ type: "resend", rounds: missing });
    }
  };
  applyFull(model.get("snapshot"));
  applyPatch(model.get("patch"));
  fillGaps();
  model.on("change:snapshot", () => (applyFull(model.get("snapshot")), fillGaps(), changed()));
  model.on("change:patch", () => (applyPatch(model.get("patch")), fillGaps(), changed()));
  model.on("msg:custom", (msg) => {
    if (!msg || msg.type !== "rounds") return;
    store.asked = false;
    applyFull(msg);
    fillGaps();
    changed();
  });
  return store;
}

// ---- what a round says ----------------------------------------------------------------------

function toolUses(r) {
  return (r.reply || []).filter((b) => b.type === "tool_use");
}

function summary(w, r, k, n) {
  if (!r) return say(w, "say.missing", n, { round: k });
  const uses = toolUses(r);
  const said = !r.reply
    ? say(w, "say.waiting", n, { round: r.index })
    : uses.length
      ? say(w, "say.asks", n, { round: r.index, names: uses.map((b) => b.name).join(", ") })
      : say(w, "say.answers", n, { round: r.index,
        text: oneLine((r.reply.find((b) => b.type === "text") || {}).text || "", 60) });
  return r.stop_reason ? say(w, "say.stop", undefined, { said, reason: r.stop_reason, step: r.next }) : said;
}

function messagesAt(rounds, k) {
  let list = [];
  for (let i = 0; i < k; i++) {
    const r = rounds[i];
    if (!r) return null;
    list = r.rewritten ? r.sent_new.slice() : list.concat(r.sent_new);
  }
  return list;
}

function blockNode(w, b) {
  const tag = h("span", { class: "ad-tag" }, b.type);
  if (b.type === "tool_use")
    return h("div", { class: "ad-block ad-use" }, tag, " ", h("strong", {}, b.name), " ",
      h("code", {}, cut(w, inputText(b.input), 200)));
  if (b.type === "tool_result")
    return h("div", { class: "ad-block ad-result" + (b.is_error ? " ad-is-error" : "") }, tag,
      b.is_error ? [" ", h("span", { class: "ad-error" }, say(w, "error"))] : "", " ",
      sayNodes(w, "result_for", undefined, { id: idNode(b.tool_use_id) }),
      h("div", {}, cut(w, b.content, 200)));
  return h("div", { class: "ad-block" }, tag, " ", cut(w, b.text || "", 400));
}

// ---- views ------------------------------------------------------------------------------------

function sentLine(w, r) {
  return say(w, "sent", r.sent_count, { new: r.sent_new.length });
}

function lanes(w, r, meta, hidden, askNode) {
  const span = say(w, "span", r.sent_start, { last: r.sent_start - 1 });
  const sent = h("section", { class: "ad-lane ad-lane-user", "aria-label": say(w, "col.harness") },
    h("h4", { title: say(w, "harness") }, say(w, "lane.harness")),
    h("p", {}, sentLine(w, r)),
    r.sent_start ? h("p", { class: "ad-muted" }, say(w, "resent", undefined, { span })) : "",
    r.rewritten ? h("p", { class: "ad-muted" }, say(w, "rewritten")) : "",
    r.sent_new.map((m, i) => h("div", { class: "ad-new" }, h("span", { class: "ad-newtag" }, say(w, "new")),
      " ", say(w, "message", undefined, { index: r.sent_start + i, role: m.role }), m.blocks.map((b) => blockNode(w, b)))));
  if (hidden)
    return h("div", { class: "ad-lanes" }, sent, h("section", { class: "ad-lane ad-ask" }, askNode));
  const facts = [
    r.duration_s == null ? "" : say(w, "seconds", undefined, { seconds: r.duration_s.toFixed(2) }),
    r.usage && r.usage.input_tokens !== undefined
      ? say(w, meta.offline ? "tokens.estimated" : "tokens", undefined,
        { input: r.usage.input_tokens, output: r.usage.output_tokens ?? "?" }) : "",
  ].filter(Boolean).join(" · ");
  const modelLane = h("section", { class: "ad-lane ad-lane-model", "aria-label": say(w, "lane.model") },
    h("h4", {}, say(w, "lane.model")),
    (r.reply || []).map((b) => blockNode(w, b)),
    r.stop_reason !== null ? h("div", { class: "ad-stop" },
      sayNodes(w, "stop", undefined, { reason: h("code", {}, r.stop_reason), meaning: r.meaning }),
      h("div", { class: "ad-next" }, say(w, "next", undefined, { step: r.next }))) : h("p", {}, say(w, "waiting_reply")),
    h("p", { class: "ad-muted" }, facts));
  const calls = r.tools.map((t) => h("div", { class: "ad-call" + (t.is_error ? " ad-is-error" : "") },
    h("div", {}, h("strong", {}, t.name), " ", idNode(t.id), " ",
      t.is_error ? h("span", { class: "ad-error" }, say(w, "error")) : h("span", { class: "ad-ok" }, say(w, "ok")),
      t.duration_s == null ? "" : " · " + say(w, "seconds", undefined, { seconds: t.duration_s.toFixed(2) })),
    h("div", { class: "ad-io" }, say(w, "input"), " ", h("code", {}, cut(w, inputText(t.input), 400))),
    h("div", { class: "ad-out" }, cut(w, t.output, 600))));
  const notRun = (r.unanswered || []).map((id) => h("div", { class: "ad-call ad-is-error" },
    h("span", { class: "ad-error" }, say(w, "not_run")), " ", idNode(id), " (", say(w, "not_run.why"), ")"));
  const empty = h("p", { class: r.final ? "ad-final" : "ad-muted" }, say(w, r.final ? "final" : "no_calls"));
  const toolsLane = h("section", { class: "ad-lane ad-lane-tools", "aria-label": say(w, "lane.tools") },
    h("h4", {}, say(w, "lane.tools")), calls.length || notRun.length ? [calls, notRun] : empty);
  return h("div", { class: "ad-lanes" }, sent, modelLane, toolsLane);
}

function messagesView(w, store, k) {
  const list = messagesAt(store.rounds, k);
  const r = store.rounds[k - 1];
  if (!list) return h("p", {}, say(w, "missing_earlier"));
  const before = k > 1 && store.rounds[k - 2] ? store.rounds[k - 2].sent_count : 0;
  return h("div", {},
    h("p", {}, k > 1
      ? say(w, "sends.again", list.length, { round: k, previous: k - 1, before, same: r.sent_start })
      : say(w, "sends", list.length, { round: k })),
    h("ol", { class: "ad-msgs", start: 0 }, list.map((m, i) => {
      const isNew = r.rewritten || i >= r.sent_start;
      return h("li", { class: isNew ? "ad-new" : "" }, isNew ? h("span", { class: "ad-newtag" }, say(w, "new")) : "",
        " ", m.role, m.blocks.map((b) => blockNode(w, b)));
    })));
}

function growthView(w, store, k, meta) {
  const ns = "http://www.w3.org/2000/svg";
  const sizes = store.rounds.map((r) => (r && r.usage && Number.isFinite(r.usage.input_tokens) ? r.usage.input_tokens : null));
  if (!sizes.some((s) => s)) return h("p", { class: "ad-no-growth" }, say(w, "no_tokens"));
  const top = Math.max(1, ...sizes.filter((s) => s !== null));
  const svg = document.createElementNS(ns, "svg");
  const width = 640, barH = 14, gap = 4;
  svg.setAttribute("viewBox", `0 0 ${width} ${sizes.length * (barH + gap) + 4}`);
  svg.setAttribute("class", "ad-growth");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", say(w, "growth"));
  sizes.forEach((s, i) => {
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", "70"); rect.setAttribute("y", String(i * (barH + gap) + 2));
    rect.setAttribute("width", String(s === null ? 0 : Math.max(2, ((width - 170) * s) / top))); rect.setAttribute("height", String(barH));
    rect.setAttribute("class", i + 1 === k ? "ad-bar ad-bar-now" : "ad-bar");
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", "0"); label.setAttribute("y", String(i * (barH + gap) + barH));
    label.textContent = say(w, "growth.round", undefined, { round: i + 1 });
    const value = document.createElementNS(ns, "text");
    value.setAttribute("x", String(76 + ((width - 170) * (s || 0)) / top)); value.setAttribute("y", String(i * (barH + gap) + barH));
    value.textContent = s === null ? say(w, "growth.unknown") : String(s);
    svg.append(rect, label, value);
  });
  return h("div", {}, h("p", {}, say(w, meta.offline ? "growth.caption.estimated" : "growth.caption")), svg);
}

function protocolView(w, meta) {
  const problems = meta.problems || [];
  return problems.length
    ? h("ul", { class: "ad-problems" }, problems.map((p) => h("li", {}, h("span", { class: "ad-error" }, say(w, "problem")), " ", p)))
    : h("p", {}, say(w, "protocol.ok"));
}

// ---- predict, then reveal -----------------------------------------------------------------------

const TEXT_GUESS = ""; // a guess with no tool's name: the model answers in text

// the choices: every tool the model was offered (else the tools the run called), and text
function choices(store) {
  const offered = store.meta.toolbox || [];
  if (offered.length) return { tools: offered, calledOnly: false };
  const used = [...new Set(store.rounds.flatMap((x) => (x ? toolUses(x).map((b) => b.name) : [])))];
  return { tools: used.map((name) => ({ name, description: "" })), calledOnly: true };
}

function askNode(w, r, offer, onGuess) {
  const button = (guess, label, title) =>
    h("button", { class: "ad-guess", "data-guess": guess, title: title || undefined, onclick: () => onGuess(guess) }, label);
  return h("div", { class: "ad-predict-box" },
    h("h4", {}, say(w, "predict.title", undefined, { round: r.index })),
    h("p", {}, say(w, "predict.question")),
    h("div", { class: "ad-choices" },
      offer.tools.map((t) => button(t.name, say(w, "predict.call", undefined, { name: t.name }), t.description)),
      button(TEXT_GUESS, say(w, "predict.text"), say(w, "predict.text.title"))),
    offer.calledOnly ? h("p", { class: "ad-muted" }, say(w, "predict.called_only")) : "");
}

function verdict(w, r, guess) {
  const names = toolUses(r).map((b) => b.name);
  const actual = names.length ? say(w, "actual.called", undefined, { names: names.join(", ") }) : say(w, "actual.text");
  const right = names.length ? names.includes(guess) : guess === TEXT_GUESS;
  const shown = guess === TEXT_GUESS ? say(w, "guess.text") : guess;
  return h("p", { class: right ? "ad-verdict ad-right" : "ad-verdict ad-wrong" },
    say(w, right ? "right" : "wrong", undefined, { guess: shown, actual }));
}

// ---- the view ---------------------------------------------------------------------------------

function render({ model, el }) {
  const store = storeFor(model);
  const w = () => store.meta.words || {};
  const ui = { k: 1, tab: "diagram", predict: false, guesses: {}, follow: true };
  const live = h("p", { class: "ad-live", "aria-live": "polite", role: "status" });
  const pos = h("span", { class: "ad-pos" });
  const slider = h("input", { type: "range", class: "ad-slider", min: 1, max: 1, value: 1 });
  const body = h("div", { class: "ad-body" });
  const title = h("strong", {});
  const badge = h("span", { class: "ad-badge" });
  const modelName = h("code", { class: "ad-model" });
  const legend = h("p", { class: "ad-legend ad-muted" });
  const keys = h("p", { class: "ad-keys ad-muted" });
  const steps = [["ad-first", "first", () => go(1)], ["ad-prev", "prev", () => go(ui.k - 1)],
    ["ad-next", "next_button", () => go(ui.k + 1)], ["ad-last", "last", () => go(count())]];
  const [first, prev, next, last] = steps.map(([cls, , go_]) => h("button", { class: cls, onclick: go_ }));
  const tabs = ["diagram", "messages", "growth", "protocol"];
  const tabButtons = tabs.map((t) => h("button", { role: "tab", class: "ad-tab", "data-tab": t,
    onclick: () => { ui.tab = t; draw(); } }));
  const predictBox = h("input", { type: "checkbox", class: "ad-predict",
    onchange: () => { ui.predict = predictBox.checked; draw(true); } });
  const predictLabel = h("span", {});
  const inferred = h("p", { class: "ad-note ad-inferred" });
  const root = h("div", { class: "ad-root", tabindex: 0, role: "region",
    "aria-keyshortcuts": "ArrowLeft ArrowRight ArrowUp ArrowDown Home End",
    // Lumino (JupyterLab, Notebook 7) handles keys at the document before they reach us:
    // this attribute makes it leave the diagram's keys alone (no cell moves or deletes)
    "data-lm-suppress-shortcuts": "true" },
    h("header", { class: "ad-head" }, title, badge, modelName),
    legend,
    h("div", { class: "ad-controls" }, first, prev, slider, next, last, pos),
    keys,
    inferred,
    h("div", { class: "ad-tabs", role: "tablist" }, tabButtons,
      h("label", { class: "ad-predict-label" }, predictBox, " ", predictLabel)),
    live, body);
  el.append(root);

  const count = () => Math.max(store.rounds.length, store.meta.round_count || 0);
  function go(k) {
    const n = count();
    ui.k = Math.min(Math.max(1, k), Math.max(1, n));
    ui.follow = ui.k === n;
    draw(true);
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  root.addEventListener("keydown", (ev) => {
    if (ev.target === slider && ev.key.startsWith("Arrow")) return; // the slider moves itself
    const moves = { ArrowRight: ui.k + 1, ArrowDown: ui.k + 1, ArrowLeft: ui.k - 1, ArrowUp: ui.k - 1, Home: 1, End: count() };
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    go(moves[ev.key]);
  });

  // the words that do not change with the round: set again when the snapshot brings them
  function label(words, meta) {
    if (meta.lang) root.setAttribute("lang", meta.lang);
    root.setAttribute("aria-label", say(words, "title"));
    title.textContent = say(words, "title");
    legend.textContent = say(words, "legend");
    legend.title = say(words, "harness");
    keys.textContent = say(words, "keys");
    slider.setAttribute("aria-label", say(words, "slider"));
    [first, prev, next, last].forEach((b, i) => {
      const key = steps[i][1];
      b.textContent = say(words, key);
      b.title = say(words, key.replace("_button", "") + ".label");
      b.setAttribute("aria-label", b.title);
    });
    tabButtons.forEach((b) => (b.textContent = say(words, "tab." + b.dataset.tab)));
    predictLabel.textContent = say(words, "predict");
  }

  function draw(announce = false) {
    const n = count();
    const meta = store.meta;
    const words = w();
    label(words, meta);
    if (ui.follow) ui.k = Math.max(1, n);
    badge.textContent = say(words, meta.backend_known === false ? "badge.unknown" : meta.offline ? "badge.offline" : "badge.live");
    badge.className = "ad-badge " + (meta.offline ? "ad-offline" : "ad-livebadge");
    modelName.textContent = meta.model || "";
    inferred.textContent = meta.stops_inferred ? say(words, "inferred") : "";
    inferred.hidden = !meta.stops_inferred;
    slider.max = String(Math.max(1, n));
    slider.value = String(ui.k);
    slider.setAttribute("aria-valuetext", say(words, "position", n, { round: ui.k }));
    const fin = meta.finished;
    pos.textContent = !n ? say(words, "no_rounds")
      : fin && ui.k === n ? say(words, "position.finished", n, { round: ui.k, reason: fin.stop_reason })
        : say(words, "position", n, { round: ui.k });
    tabButtons.forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === ui.tab)));
    const r = store.rounds[ui.k - 1];
    const hidden = ui.predict && r && r.reply && !(ui.k in ui.guesses);
    body.replaceChildren();
    if (!n) body.append(h("p", { class: "ad-muted" }, say(words, "waiting_first")));
    else if (!r) body.append(h("p", {}, say(words, "missing_round", undefined, { round: ui.k })));
    else if (ui.tab === "diagram") {
      const ask = askNode(words, r, choices(store), (guess) => { ui.guesses[ui.k] = guess; draw(true); });
      body.append(lanes(words, r, meta, hidden, ask));
      if (ui.predict && ui.k in ui.guesses) body.append(verdict(words, r, ui.guesses[ui.k]));
      if (fin && ui.k === n) body.append(h("p", { class: "ad-finished" },
        say(words, "finished", undefined, { round: fin.round, reason: fin.stop_reason, why: fin.why })));
    } else if (ui.tab === "messages") body.append(messagesView(words, store, ui.k));
    else if (ui.tab === "growth") body.append(growthView(words, store, ui.k, meta));
    else body.append(protocolView(words, meta));
    if (announce || !live.textContent)
      live.textContent = hidden ? say(words, "say.predict", n, { round: ui.k }) : summary(words, r, ui.k, n);
  }

  const onChange = () => draw(ui.follow);
  store.listeners.add(onChange);
  draw(true);
  return () => store.listeners.delete(onChange);
}

export default { initialize: ({ model }) => void storeFor(model), render };
