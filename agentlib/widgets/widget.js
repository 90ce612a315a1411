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

function one(value, limit = 120, keepLines = false) {
  const text = String(typeof value === "string" ? value : JSON.stringify(value));
  const flat = keepLines ? text : text.replace(/\s*\n\s*/g, " ");  // one line, read aloud cleanly
  return flat.length > limit ? flat.slice(0, limit - 1) + "…" : flat;
}

// long ids wrap badly; the tail is enough to see which call a result answers
function idNode(id) {
  const text = String(id);
  return h("code", { class: "ad-id", title: text }, text.length > 14 ? "…" + text.slice(-8) : text);
}

// "harness" is the course's word for the code around the model; the lane says it in plain words
const HARNESS = "The harness is your code around the model: the loop that keeps the history, " +
  "sends it to the model and runs the tools the model asks for.";
const LEGEND = "Each round: your code (the harness) sends the whole history → the model replies → " +
  "your code runs the tools it asked for and sends their results next round.";
const KEYS = "Keys: ← → (or ↑ ↓) previous / next round, Home / End first / last round.";
const ANSWER = "answer in text";

const span = (n) => (n === 1 ? "messages[0]" : `messages[0..${n - 1}]`);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const secs = (s) => (s === null || s === undefined ? "" : `${s.toFixed(2)} s`);

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

function summary(r, n) {
  if (!r) return `Round of ${n}: not received yet`;
  const uses = toolUses(r);
  const did = !r.reply
    ? "waiting for the model"
    : uses.length
      ? `the model asks for ${uses.map((b) => b.name).join(", ")}`
      : `the model answers: ${one((r.reply.find((b) => b.type === "text") || {}).text || "", 60)}`;
  const stop = r.stop_reason ? `; stop_reason ${r.stop_reason}, next: ${r.next}` : "";
  return `Round ${r.index} of ${n}: ${did}${stop}`;
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

function blockNode(b) {
  if (b.type === "tool_use")
    return h("div", { class: "ad-block ad-use" }, h("span", { class: "ad-tag" }, "tool_use"), " ",
      h("strong", {}, b.name), " ", h("code", {}, one(b.input, 200)));
  if (b.type === "tool_result")
    return h("div", { class: "ad-block ad-result" + (b.is_error ? " ad-is-error" : "") },
      h("span", { class: "ad-tag" }, "tool_result"), b.is_error ? h("span", { class: "ad-error" }, " ERROR") : "",
      " for ", idNode(b.tool_use_id), h("div", { class: "ad-text" }, one(b.content, 200, true)));
  return h("div", { class: "ad-block" }, h("span", { class: "ad-tag" }, b.type), " ",
    h("span", { class: "ad-text" }, one(b.text || "", 400, true)));
}

// ---- views ------------------------------------------------------------------------------------

function lanes(r, meta, hidden, askNode) {
  const sent = h("section", { class: "ad-lane ad-lane-user", "aria-label": "Your code (the harness): what it sent" },
    h("h4", { title: HARNESS }, "Your code (the harness)"),
    h("p", {}, `Sent ${plural(r.sent_count, "message")}, ${r.sent_new.length} new`),
    r.sent_start ? h("p", { class: "ad-muted" }, `${span(r.sent_start)} sent again unchanged`) : "",
    r.sent_new.map((m, i) => h("div", { class: "ad-new" }, h("span", { class: "ad-newtag" }, "NEW"),
      ` messages[${r.sent_start + i}] ${m.role}`, m.blocks.map(blockNode))));
  if (hidden)
    return h("div", { class: "ad-lanes" }, sent, h("section", { class: "ad-lane ad-ask" }, askNode));
  const usage = r.usage && r.usage.input_tokens !== undefined
    ? `in ${r.usage.input_tokens} / out ${r.usage.output_tokens} tokens${meta.offline ? " (estimated)" : ""}` : "";
  const modelLane = h("section", { class: "ad-lane ad-lane-model", "aria-label": "Model" },
    h("h4", {}, "Model"),
    (r.reply || []).map(blockNode),
    r.stop_reason !== null ? h("div", { class: "ad-stop" },
      h("code", {}, `stop_reason: ${r.stop_reason}`), ` means ${r.meaning}.`,
      h("div", {}, h("strong", {}, "Next: "), r.next + ".")) : h("p", {}, "waiting for the reply…"),
    h("p", { class: "ad-muted" }, [secs(r.duration_s), usage].filter(Boolean).join(" · ")));
  const calls = r.tools.map((t) => h("div", { class: "ad-call" + (t.is_error ? " ad-is-error" : "") },
    h("div", {}, h("strong", {}, t.name), " ", idNode(t.id), " ",
      t.is_error ? h("span", { class: "ad-error" }, "ERROR") : h("span", { class: "ad-ok" }, "ok"),
      t.duration_s == null ? "" : ` · ${secs(t.duration_s)}`),
    h("div", { class: "ad-io" }, "input: ", h("code", {}, one(t.input, 200))),
    h("pre", { class: "ad-out" }, one(t.output, 600, true))));
  const notRun = (r.unanswered || []).map((id) => h("div", { class: "ad-call ad-is-error" },
    h("span", { class: "ad-error" }, "NOT RUN"), " ", idNode(id), ": the loop stopped before running it"));
  const toolsLane = h("section", { class: "ad-lane ad-lane-tools", "aria-label": "Tools" }, h("h4", {}, "Tools"),
    calls.length || notRun.length ? [calls, notRun] : h("p", { class: "ad-muted" }, "no tool calls"));
  return h("div", { class: "ad-lanes" }, sent, modelLane, toolsLane);
}

function messagesView(store, k) {
  const list = messagesAt(store.rounds, k);
  const r = store.rounds[k - 1];
  if (!list) return h("p", {}, "Some earlier rounds have not arrived yet.");
  const before = k > 1 && store.rounds[k - 2] ? store.rounds[k - 2].sent_count : 0;
  return h("div", {},
    h("p", {}, `Round ${k} sends ${plural(list.length, "message")}` +
      (k > 1 ? `; round ${k - 1} sent ${before}. The first ${r.sent_start} are the same: ` +
        "the whole history is sent every time." : ".")),
    h("ol", { class: "ad-msgs", start: 0 }, list.map((m, i) => {
      const isNew = r.rewritten || i >= r.sent_start;
      return h("li", { class: isNew ? "ad-new" : "" }, isNew ? h("span", { class: "ad-newtag" }, "NEW") : "",
        ` ${m.role}`, m.blocks.map(blockNode));
    })));
}

function growthView(store, k, meta) {
  const ns = "http://www.w3.org/2000/svg";
  const sizes = store.rounds.map((r) => (r && r.usage && Number.isFinite(r.usage.input_tokens) ? r.usage.input_tokens : null));
  if (!sizes.some((s) => s)) return h("p", { class: "ad-no-growth" },
    "No token counts recorded for this run, so there is no context growth to draw " +
    "(a run drawn from its message history alone has none).");
  const top = Math.max(1, ...sizes.filter((s) => s !== null));
  const svg = document.createElementNS(ns, "svg");
  const w = 640, barH = 14, gap = 4;
  svg.setAttribute("viewBox", `0 0 ${w} ${sizes.length * (barH + gap) + 4}`);
  svg.setAttribute("class", "ad-growth");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Input tokens per round");
  sizes.forEach((s, i) => {
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("x", "60"); rect.setAttribute("y", String(i * (barH + gap) + 2));
    rect.setAttribute("width", String(s === null ? 0 : Math.max(2, ((w - 160) * s) / top))); rect.setAttribute("height", String(barH));
    rect.setAttribute("class", i + 1 === k ? "ad-bar ad-bar-now" : "ad-bar");
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", "0"); label.setAttribute("y", String(i * (barH + gap) + barH));
    label.textContent = `round ${i + 1}`;
    const value = document.createElementNS(ns, "text");
    value.setAttribute("x", String(66 + ((w - 160) * (s || 0)) / top)); value.setAttribute("y", String(i * (barH + gap) + barH));
    value.textContent = s === null ? "? (not recorded)" : String(s);
    svg.append(rect, label, value);
  });
  return h("div", {}, h("p", {}, "Input tokens per round" + (meta.offline ? " (estimated)" : "") +
    ": each round sends the whole history, so the context grows."), svg);
}

function protocolView(meta) {
  const problems = meta.problems || [];
  return problems.length
    ? h("ul", { class: "ad-problems" }, problems.map((p) => h("li", {}, h("span", { class: "ad-error" }, "PROBLEM "), p)))
    : h("p", {}, h("span", { class: "ad-ok" }, "ok"), ": every tool_use was answered by a tool_result in the next message.");
}

// ---- predict, then reveal -----------------------------------------------------------------------

// the choices: every tool the model was offered (else the tools the run called), and text
function choices(store) {
  const offered = store.meta.toolbox || [];
  if (offered.length) return { tools: offered, note: "" };
  const used = [...new Set(store.rounds.flatMap((x) => (x ? toolUses(x).map((b) => b.name) : [])))];
  return { tools: used.map((name) => ({ name, description: "" })),
    note: "The diagram was not told the toolbox, so only the tools this run called are offered." };
}

function askNode(r, offer, onGuess) {
  const button = (guess, label, title) =>
    h("button", { class: "ad-guess", "data-guess": guess, title: title || undefined, onclick: () => onGuess(guess) }, label);
  return h("div", { class: "ad-predict-box" },
    h("h4", {}, `Predict round ${r.index}`),
    h("p", {}, "The model has this history and these tools. What will it do?"),
    h("div", { class: "ad-choices" },
      offer.tools.map((t) => button(t.name, `Call ${t.name}`, t.description)),
      button(ANSWER, "Answer in text", "reply with text and no tool call: the run ends")),
    offer.note ? h("p", { class: "ad-muted" }, offer.note) : "");
}

function verdict(r, guess) {
  const names = toolUses(r).map((b) => b.name);
  const actual = names.length ? `called ${names.join(", ")}` : "answered in text";
  const right = names.length ? names.includes(guess) : guess === ANSWER;
  return h("p", { class: right ? "ad-verdict ad-right" : "ad-verdict ad-wrong" },
    right ? "Right: " : "Not this time: ", `you guessed "${guess}"; the model ${actual}.`);
}

// ---- the view ---------------------------------------------------------------------------------

function render({ model, el }) {
  const store = storeFor(model);
  const ui = { k: 1, tab: "diagram", predict: false, guesses: {}, follow: true };
  const live = h("p", { class: "ad-live", "aria-live": "polite", role: "status" });
  const pos = h("span", { class: "ad-pos" });
  const slider = h("input", { type: "range", class: "ad-slider", min: 1, max: 1, value: 1, "aria-label": "Round" });
  const body = h("div", { class: "ad-body" });
  const badge = h("span", { class: "ad-badge" });
  const modelName = h("code", { class: "ad-model" });
  const btn = (cls, label, text, go) => h("button", { class: cls, "aria-label": label, title: label, onclick: go }, text);
  const tabs = ["diagram", "messages", "growth", "protocol"];
  const tabLabels = { diagram: "Diagram", messages: "Messages sent", growth: "Context growth", protocol: "Protocol check" };
  const tabButtons = tabs.map((t) => h("button", { role: "tab", class: "ad-tab", "data-tab": t,
    onclick: () => { ui.tab = t; draw(); } }, tabLabels[t]));
  const predictBox = h("input", { type: "checkbox", class: "ad-predict",
    onchange: () => { ui.predict = predictBox.checked; draw(true); } });
  const inferred = h("p", { class: "ad-note ad-inferred" });
  const root = h("div", { class: "ad-root", tabindex: 0, role: "region", "aria-label": "Round diagram",
    "aria-keyshortcuts": "ArrowLeft ArrowRight ArrowUp ArrowDown Home End",
    // Lumino (JupyterLab, Notebook 7) handles keys at the document before they reach us:
    // this attribute makes it leave the diagram's keys alone (no cell moves or deletes)
    "data-lm-suppress-shortcuts": "true" },
    h("header", { class: "ad-head" }, h("strong", {}, "Round diagram"), badge, modelName),
    h("p", { class: "ad-legend ad-muted", title: HARNESS }, LEGEND),
    h("div", { class: "ad-controls" },
      btn("ad-first", "First round", "« First", () => go(1)),
      btn("ad-prev", "Previous round", "◀ Prev", () => go(ui.k - 1)),
      slider,
      btn("ad-next", "Next round", "Next ▶", () => go(ui.k + 1)),
      btn("ad-last", "Last round", "Last »", () => go(count())),
      pos),
    h("p", { class: "ad-keys ad-muted" }, KEYS),
    inferred,
    h("div", { class: "ad-tabs", role: "tablist" }, tabButtons,
      h("label", { class: "ad-predict-label" }, predictBox, " Predict before reveal")),
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
    const keys = { ArrowRight: ui.k + 1, ArrowDown: ui.k + 1, ArrowLeft: ui.k - 1, ArrowUp: ui.k - 1, Home: 1, End: count() };
    if (!(ev.key in keys)) return;
    ev.preventDefault();
    go(keys[ev.key]);
  });

  function draw(announce = false) {
    const n = count();
    const meta = store.meta;
    if (ui.follow) ui.k = Math.max(1, n);
    badge.textContent = meta.backend_known === false ? "model unknown (history only)"
      : meta.offline ? "OFFLINE · tokens estimated" : "LIVE model";
    badge.className = "ad-badge " + (meta.offline ? "ad-offline" : "ad-livebadge");
    modelName.textContent = meta.model || "";
    inferred.textContent = meta.stops_inferred
      ? "Stop reasons are inferred from the history (no loop events were recorded): tool_use when a reply asks for tools, else end_turn."
      : "";
    inferred.hidden = !meta.stops_inferred;
    slider.max = String(Math.max(1, n));
    slider.value = String(ui.k);
    slider.setAttribute("aria-valuetext", `Round ${ui.k} of ${n}`);
    const fin = meta.finished;
    pos.textContent = n ? `Round ${ui.k} of ${n}` + (fin && ui.k === n ? ` · finished: ${fin.stop_reason}` : "") : "No rounds yet";
    tabButtons.forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === ui.tab)));
    const r = store.rounds[ui.k - 1];
    const hidden = ui.predict && r && r.reply && !(ui.k in ui.guesses);
    body.replaceChildren();
    if (!n) body.append(h("p", { class: "ad-muted" }, "Waiting for the first round…"));
    else if (!r) body.append(h("p", {}, `Round ${ui.k} has not arrived yet.`));
    else if (ui.tab === "diagram") {
      const ask = askNode(r, choices(store), (guess) => { ui.guesses[ui.k] = guess; draw(true); });
      body.append(lanes(r, meta, hidden, ask));
      if (ui.predict && ui.k in ui.guesses) body.append(verdict(r, ui.guesses[ui.k]));
      if (fin && ui.k === n) body.append(h("p", { class: "ad-finished" }, `Finished: ${fin.stop_reason} (${fin.why}).`));
    } else if (ui.tab === "messages") body.append(messagesView(store, ui.k));
    else if (ui.tab === "growth") body.append(growthView(store, ui.k, meta));
    else body.append(protocolView(meta));
    if (announce || !live.textContent)
      live.textContent = hidden ? `Round ${ui.k} of ${n}: make your prediction` : summary(r, n);
  }

  const onChange = () => draw(ui.follow);
  store.listeners.add(onChange);
  draw(true);
  return () => store.listeners.delete(onChange);
}

export default { initialize: ({ model }) => void storeFor(model), render };
