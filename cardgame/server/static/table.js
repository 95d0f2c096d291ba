// The table page: one websocket to /ws/{id}; spectate, sit, play. Protocol: docs/server.md.
"use strict";

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
const TOKEN_KEY = `cardgame.token.${tableId}`;
const $ = (id) => document.getElementById(id);

const state = {
  ws: null,
  retries: 0,
  config: null,       // the table's config, from `welcome`
  view: null,         // the newest view
  seq: 0,             // the newest event sequence number seen
  you: null,          // our seat, or null (spectating)
  resuming: false,    // a `resume` was sent and not yet answered
  clockAt: 0,         // performance.now() when the newest clock arrived
  picked: new Set(),  // cards chosen to discard in a draw
  shown: "",          // the question on screen, so a new view keeps a half-typed amount
  pending: false,     // a decision was sent and its answer has not come yet
  variants: [],       // GET /api/variants, for the stakes in the header
  summary: [],        // the showdown of the hand in progress, shown as "last hand" when it ends
  lost: false,        // the connection dropped (not closed on purpose): say so when it is back
  notices: new Set(), // the notices shown, so one told again on reconnecting is not shown twice
};

// --- the connection -------------------------------------------------------------------------

function connect() {
  setStatus("connecting", "connecting…");
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(tableId)}`);
  state.ws = ws;
  ws.onopen = () => {
    state.retries = 0;
    setStatus("connected", "connected");
    if (state.lost) {
      state.lost = false;
      note("Reconnected.", "reconnected");
    }
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) {
      state.resuming = true;
      send({ type: "resume", token });
    }
  };
  ws.onmessage = (message) => {
    let data;
    try { data = JSON.parse(message.data); } catch { return; }
    handle(data);
  };
  ws.onclose = () => {
    if (state.ws !== ws) return;
    state.ws = null;
    state.pending = false;
    // back off, but not past 4 s: a player whose turn it is should be back soon after the server is
    const delay = Math.min(4000, 500 * 2 ** state.retries) * (0.75 + Math.random() / 2);
    state.retries += 1;
    setStatus("offline", "Reconnecting…");
    if (!state.lost) {
      state.lost = true;
      note("The connection to the table was lost. Reconnecting…", "reconnecting");
    }
    setTimeout(connect, delay);
  };
}

/** Drop the socket and connect again at once: the server sends full views on connecting. */
function resync() {
  const ws = state.ws;
  state.ws = null;
  if (ws) ws.close();
  state.retries = 0;
  connect();
}

function send(message) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
    showError("Not connected; reconnecting…");
    return false;
  }
  state.ws.send(JSON.stringify(message));
  return true;
}

/** A decision: carries the newest seq, and waits for its answer before another one. */
function decide(message) {
  if (state.pending) return;
  if (send({ ...message, seq: state.seq })) {
    state.pending = true;
    renderQuestion();
  }
}

function handle(message) {
  switch (message.type) {
    case "welcome": {
      const table = message.table || {};
      state.config = { ...(table.config || {}), variantName: table.variant };
      state.seq = message.seq ?? 0;
      renderHeader();
      break;
    }
    case "seated":
      localStorage.setItem(TOKEN_KEY, message.token);
      state.you = message.seat;
      break;
    case "view":
      applyView(message);
      break;
    case "notice":
      showNotice(message);
      break;
    case "left":
      localStorage.removeItem(TOKEN_KEY);
      state.you = null;
      note(message.stack === null || message.stack === undefined
        ? "You leave the table when this hand ends."
        : `You left the table with ${message.stack} chips.`, "left");
      render();
      break;
    case "error":
      state.pending = false;
      if (message.code === "bad_token") {  // our resume failed (the seat is gone), or another tab took the seat
        if (state.resuming) localStorage.removeItem(TOKEN_KEY);
        state.resuming = false;
      }
      showError(message.message || message.code);
      if (message.code === "stale" && message.seq > state.seq) {
        note("The page missed an update; resynchronising.", "resync");
        resync();
        return;
      }
      render();
      break;
  }
}

function applyView(view) {
  const events = view.events || [];
  if (!view.full && events.length && events[0].seq !== state.seq + 1) {
    note(`Missed events ${state.seq + 1} to ${events[0].seq - 1}; resynchronising.`, "resync");
    resync();
    return;
  }
  if (view.full && events.length) {  // it re-sends the hand from its start: drop our copy of it
    for (const item of [...$("log").children]) {
      if (item.dataset.seq && Number(item.dataset.seq) >= events[0].seq) item.remove();
    }
  }
  for (const event of events) {
    logEvent(event);
    summarise(event, view.table);
  }
  state.view = view;
  state.seq = view.seq;
  state.you = view.you ?? null;
  document.body.dataset.seq = view.seq;  // for tests: the newest event shown
  document.body.dataset.you = state.you ?? "";
  if (state.you !== null) state.resuming = false;
  state.pending = false;
  state.clockAt = performance.now();
  const q = view.question;
  if (!q || q.kind !== "draw") state.picked.clear();
  render();
}

// --- the page -------------------------------------------------------------------------------

function render() {
  renderSeats();
  renderCentre();
  renderQuestion();
  renderControls();
  tick();
}

function renderHeader() {
  const c = state.config;
  $("table-name").textContent = c.name || `Table ${tableId}`;
  document.title = `${c.name || `Table ${tableId}`} · cardgame`;
  const buyIn = `buy-in ${c.min_buy_in}–${c.max_buy_in}`;
  $("table-info").textContent = [c.variantName || c.variant, stakesOf(paramsOf(c, state.variants)), buyIn].filter(Boolean).join(" · ");
}

function seatCount() {
  const seats = state.view ? state.view.table.seats : [];
  return Math.max(state.config?.seats || 0, ...seats.map((s) => s.seat + 1));
}

function renderSeats() {
  const table = state.view?.table;
  const bySeat = new Map((table?.seats || []).map((s) => [s.seat, s]));
  const count = seatCount();
  const bottom = state.you ?? 0;  // our seat sits at the bottom
  const box = $("seats");
  const angles = seatAngles(count, box.clientWidth || 2, box.clientHeight || 1);
  const nodes = [];
  for (let seat = 0; seat < count; seat++) {
    const angle = angles[(seat - bottom + count) % count];
    const x = 50 + 50 * Math.cos(angle), y = 50 + 50 * Math.sin(angle);
    const s = bySeat.get(seat);
    const node = s ? seatNode(s, table) : emptySeatNode(seat);
    node.style.left = `${x}%`;
    node.style.top = `${y}%`;
    nodes.push(node);
    if (s && s.bet > 0) {
      const bet = el("div", { class: "bet", data: { seat, amount: s.bet }, text: s.bet });
      bet.style.left = `${50 + 30 * Math.cos(angle)}%`;
      bet.style.top = `${50 + 27 * Math.sin(angle)}%`;
      nodes.push(bet);
    }
  }
  $("seats").replaceChildren(...nodes);
  $("felt").classList.toggle("crowded", count > 6);
}

/** The angles of ``count`` seats around an ellipse of ``width`` by ``height`` pixels, from the bottom
 * clockwise, equally far apart along its edge (on a tall phone screen equal angles crowd the seats
 * at the top and bottom). */
function seatAngles(count, width, height) {
  const steps = 720, lengths = [0];
  const point = (t) => [width * Math.cos(t), height * Math.sin(t)];
  for (let i = 1; i <= steps; i++) {
    const [x0, y0] = point(Math.PI / 2 + (2 * Math.PI * (i - 1)) / steps);
    const [x1, y1] = point(Math.PI / 2 + (2 * Math.PI * i) / steps);
    lengths.push(lengths[i - 1] + Math.hypot(x1 - x0, y1 - y0));
  }
  const angles = [];
  for (let k = 0, i = 0; k < count; k++) {
    const want = (lengths[steps] * k) / count;
    while (lengths[i + 1] < want) i++;
    angles.push(Math.PI / 2 + (2 * Math.PI * i) / steps);
  }
  return angles;
}

function seatNode(s, table) {
  const flags = [];
  if (s.folded) flags.push("folded");
  if (s.all_in) flags.push("all in");
  if (s.sitting_out) flags.push("sitting out");
  const classes = ["seat"];
  if (table.to_act === s.seat) classes.push("to-act");
  if (s.seat === state.you) classes.push("you");
  if (s.folded) classes.push("folded");
  if (s.sitting_out) classes.push("sitting-out");
  if (!s.connected && !s.bot) classes.push("disconnected");
  const hole = s.folded && s.seat !== state.you ? [] : s.hole || [];  // a folded hand leaves the table
  const cards = el("div", { class: `cards hole${hole.length > 2 ? " many" : ""}` });
  hole.forEach((card, i) => cards.append(cardNode(card, !!(s.up || [])[i], table.stud)));
  return el("div", { class: classes.join(" "), data: { seat: s.seat, name: s.name } },
    cards,
    el("div", { class: "plate" },
      el("div", { class: "top" },
        el("span", { class: "name", title: s.name, text: s.name }),
        s.button ? el("span", { class: "marker dealer", title: "the button", text: "D" }) : null,
        s.bot ? el("span", { class: "marker bot", title: "a bot", text: "bot" }) : null,
        !s.connected && !s.bot ? el("span", { class: "marker away", title: "disconnected", text: "away" }) : null),
      el("div", { class: "stack", data: { amount: s.stack }, text: s.stack }),
      flags.length ? el("div", { class: "flags", text: flags.join(" · ") }) : null,
      el("div", { class: "clock", data: { seat: s.seat } })));
}

function emptySeatNode(seat) {
  const node = el("div", { class: "seat empty", data: { seat } },
    el("div", { class: "plate" }, el("span", { class: "name muted", text: `Seat ${seat}` })));
  if (state.you === null) {
    node.querySelector(".plate").append(el("button", {
      type: "button", class: "small", data: { sitHere: seat }, text: "Sit here",
      onclick: () => { $("sit-seat").value = String(seat); $("sit-name").focus(); },
    }));
  }
  return node;
}

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** One card: a back for a hidden one, else rank and suit; `up` marks a stud card dealt face up. */
function cardNode(card, up, stud) {
  if (!card) return el("span", { class: `card back${up ? " up" : ""}`, data: { card: "" }, title: "hidden" });
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = card[1];
  let cls = `card suit-${suit}`;
  if (stud) cls += up ? " up" : " down";
  return el("span", { class: cls, data: { card, up: up ? "1" : "0" }, title: card },
    el("span", { class: "rank", text: rank }), el("span", { class: "suit", text: SUITS[suit] || suit }));
}

function renderCentre() {
  const table = state.view?.table;
  if (!table) return;
  $("street").textContent = table.hand ? `Hand ${table.hand} · ${table.street}` : table.street || "";
  $("board").replaceChildren(...(table.board || []).map((c) => cardNode(c, true, false)));
  const pot = table.pot || 0;
  $("pot").dataset.amount = pot;
  $("pot").textContent = pot ? `Pot ${pot}` : "";
  const names = new Map(table.seats.map((s) => [s.seat, s.name]));
  const pots = table.pots || [];
  $("pots").replaceChildren(...(pots.length > 1 ? pots : []).map((p, i) => el("li", {
    data: { amount: p.amount },
    text: `${i ? `Side pot ${i}` : "Main pot"}: ${p.amount} (${p.seats.map((s) => names.get(s) ?? `seat ${s}`).join(", ")})`,
  })));
}

// --- the question: betting, drawing, run-outs -------------------------------------------------

function renderQuestion() {
  const q = state.view?.question;
  const mine = q && q.seat === state.you ? q : null;
  $("question").hidden = !mine;
  $("actions").hidden = !mine || mine.kind !== "act";
  $("draw").hidden = !mine || mine.kind !== "draw";
  $("runs").hidden = !mine || mine.kind !== "runs";
  $("show").hidden = !mine || mine.kind !== "show";
  $("question").classList.toggle("pending", state.pending);
  for (const b of $("question").querySelectorAll("button")) b.disabled = state.pending;
  const key = mine ? JSON.stringify(mine) : "";
  if (!mine) {  // no stale buttons linger in the page
    state.shown = "";
    for (const id of ["action-buttons", "presets", "draw-cards", "runs-buttons", "show-buttons"]) $(id).replaceChildren();
  }
  if (!mine || state.pending || key === state.shown) {
    if (mine && !state.pending && mine.kind === "draw") renderDraw(mine);  // its submit's own rule
    return;
  }
  state.shown = key;
  if (mine.kind === "act") renderActions(mine);
  else if (mine.kind === "draw") renderDraw(mine);
  else if (mine.kind === "runs") renderRuns(mine);
  else if (mine.kind === "show") renderShow(mine);
}

/** A betting button. ``amount`` is the raise-to it sends: a number, ``null`` (none), or a function
 * read when it is clicked (the amount box's value). It has one click listener: a second one would
 * send its own message first and the pending decision would swallow the other. */
function actionButton(action, label, amount = null) {
  return el("button", {
    type: "button", data: { action, ...(typeof amount === "number" ? { amount } : {}) }, text: label,
    onclick: () => decide({ type: "act", action, amount: typeof amount === "function" ? amount() : amount }),
  });
}

function renderActions(q) {
  const me = state.view.table.seats.find((s) => s.seat === state.you);
  const buttons = [];
  if (q.fold) buttons.push(actionButton("fold", "Fold"));
  if (q.check) buttons.push(actionButton("check", "Check"));
  if (q.call) buttons.push(actionButton("call", `Call ${q.call}${me && q.call >= me.stack ? " (all in)" : ""}`));
  if (q.bring_in) buttons.push(actionButton("bring_in", `Bring in ${q.bring_in}`));
  const r = q.raise;
  const verb = r && r.is_bet ? "bet" : "raise";
  const fixed = r && r.amounts && r.amounts.length ? r.amounts : null;
  if (fixed) {
    for (const amount of fixed) buttons.push(actionButton(verb, `${raiseWord(r)} ${amount}`, amount));
  } else if (r) {
    const button = actionButton(verb, "", () => raiseAmount(r));
    button.id = "raise-button";
    buttons.push(button);
  }
  $("action-buttons").replaceChildren(...buttons);
  $("raise-row").hidden = !r || !!fixed || r.min === r.max;
  if (!r || fixed) return;
  const slider = $("raise-slider"), typed = $("raise-amount");
  for (const input of [slider, typed]) { input.min = r.min; input.max = r.max; input.step = 1; }
  const pot = Math.min(r.max, Math.max(r.min, r.pot ?? r.min));
  const setAmount = (amount) => {
    slider.value = typed.value = clamp(amount, r.min, r.max);
    updateRaiseLabel(r, me);
  };
  $("presets").replaceChildren(
    el("button", { type: "button", class: "small", data: { preset: "min" }, text: "Min", onclick: () => setAmount(r.min) }),
    el("button", { type: "button", class: "small", data: { preset: "pot" }, text: "Pot", onclick: () => setAmount(pot) }),
    el("button", { type: "button", class: "small", data: { preset: "all_in" }, text: "All in", onclick: () => setAmount(r.max) }));
  slider.oninput = () => { typed.value = slider.value; updateRaiseLabel(r, me); };
  typed.oninput = () => { slider.value = clamp(Number(typed.value), r.min, r.max); updateRaiseLabel(r, me); };
  typed.onchange = () => setAmount(Number(typed.value));
  typed.onkeydown = (event) => { if (event.key === "Enter") $("raise-button").click(); };
  setAmount(r.min);
}

/** "Bet", "Raise to", or "Complete to" for a stud completion of the bring-in. */
function raiseWord(r) {
  return r.complete ? "Complete to" : r.is_bet ? "Bet" : "Raise to";
}

function clamp(n, lo, hi) {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.round(n))) : lo;
}

function raiseAmount(r) {
  return clamp(Number($("raise-amount").value), r.min, r.max);
}

function updateRaiseLabel(r, me) {
  const amount = raiseAmount(r);
  const allIn = me && amount >= me.stack + me.bet ? " (all in)" : "";
  $("raise-button").textContent = `${raiseWord(r)} ${amount}${allIn}`;
  $("raise-button").dataset.amount = amount;
}

function renderDraw(q) {
  const { min = 0, max = q.hole.length } = q;
  const cards = q.hole.map((card) => {
    const toggle = el("button", {
      type: "button", class: "toggle", data: { card }, "aria-pressed": String(state.picked.has(card)),
      onclick: () => {
        if (state.picked.has(card)) state.picked.delete(card); else state.picked.add(card);
        renderDraw(q);
      },
    }, cardNode(card, true, false));
    return toggle;
  });
  $("draw-cards").replaceChildren(...cards);
  const n = state.picked.size;
  $("draw-help").textContent = min === max
    ? `Choose ${min} card${min === 1 ? "" : "s"} to discard.`
    : `Choose ${min} to ${max} cards to discard${q.replace === false ? "" : " and draw as many"}.`;
  const submit = $("draw-submit");
  submit.textContent = n === 0 ? "Stand pat" : `Discard ${n}`;
  submit.disabled = n < min || n > max;
  submit.onclick = () => decide({ type: "draw", discards: q.hole.filter((c) => state.picked.has(c)) });
}

function renderRuns(q) {
  const words = ["Once", "Twice", "Three times", "Four times"];
  const buttons = [];
  for (let n = 1; n <= q.max; n++) {
    buttons.push(el("button", {
      type: "button", data: { runs: n }, text: words[n - 1] || `${n} times`,
      onclick: () => decide({ type: "runs", count: n }),
    }));
  }
  buttons.push(el("button", { type: "button", data: { action: "muck" }, text: "Muck", onclick: () => decide({ type: "muck" }) }));
  $("runs-buttons").replaceChildren(...buttons);
}

/** Show or muck at the showdown (tables with show_or_muck); ask to see the called hand when allowed. */
function renderShow(q) {
  $("show-help").textContent = q.awarded
    ? "You won the pot uncontested: show your hand?"
    : q.wins ? "Your hand wins so far: show it to win (a muck forfeits it)." : "Your hand does not win: show or muck?";
  const buttons = [
    el("button", { type: "button", data: { action: "show" }, text: "Show", onclick: () => decide({ type: "show" }) }),
    el("button", { type: "button", data: { action: "muck" }, text: "Muck", onclick: () => decide({ type: "muck" }) }),
  ];
  if (q.ask) {
    buttons.push(el("button", {
      type: "button", data: { action: "ask_to_see" }, text: "Ask to see", onclick: () => decide({ type: "ask_to_see" }),
    }));
  }
  $("show-buttons").replaceChildren(...buttons);
}

// --- seat controls and the sit-down form ---------------------------------------------------------

function renderControls() {
  const me = state.view?.table.seats.find((s) => s.seat === state.you);
  const seated = state.you !== null && !!me;
  $("controls").hidden = !seated;
  $("sit-form").hidden = seated || state.resuming || !state.config;
  if (seated) {
    $("sit-out").hidden = me.sitting_out;
    $("sit-in").hidden = !me.sitting_out;
    return;
  }
  if ($("sit-form").hidden) return;
  const c = state.config;
  const buyIn = $("sit-buy-in");
  buyIn.min = c.min_buy_in ?? 1;
  buyIn.max = c.max_buy_in ?? "";
  if (!buyIn.value) buyIn.value = c.max_buy_in ?? "";
  if (!$("sit-name").value) $("sit-name").value = localStorage.getItem("cardgame.name") || "";
  const taken = new Set((state.view?.table.seats || []).map((s) => s.seat));
  const select = $("sit-seat");
  const chosen = select.value;
  const options = [el("option", { value: "", text: "any free seat" })];
  for (let seat = 0; seat < seatCount(); seat++) {
    if (!taken.has(seat)) options.push(el("option", { value: seat, text: `Seat ${seat}` }));
  }
  select.replaceChildren(...options);
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
}

function setupForms() {
  $("sit-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("sit-name").value.trim();
    localStorage.setItem("cardgame.name", name);
    const seat = $("sit-seat").value;
    send({ type: "sit", name, buy_in: Number($("sit-buy-in").value), ...(seat !== "" ? { seat: Number(seat) } : {}) });
  });
  $("sit-out").onclick = () => send({ type: "sit_out" });
  $("sit-in").onclick = () => send({ type: "sit_in" });
  $("top-up").onclick = () => {
    const amount = Number($("top-up-amount").value);
    if (Number.isInteger(amount) && amount > 0) send({ type: "top_up", amount });
    else showError("Type a whole number of chips to add.");
  };
  let leaveArmed = null;
  $("leave").onclick = () => {  // two clicks, so a stray one does not cash out
    if (leaveArmed) {
      clearTimeout(leaveArmed);
      leaveArmed = null;
      $("leave").textContent = "Leave table";
      send({ type: "leave" });
      return;
    }
    $("leave").textContent = "Click again to leave";
    leaveArmed = setTimeout(() => { leaveArmed = null; $("leave").textContent = "Leave table"; }, 3000);
  };
  const four = $("four-colour");
  four.checked = localStorage.getItem("cardgame.fourColour") === "1";
  document.body.classList.toggle("four-colour", four.checked);
  four.onchange = () => {
    localStorage.setItem("cardgame.fourColour", four.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", four.checked);
  };
}

// --- the clock, the log, messages ------------------------------------------------------------------

function tick() {
  const clock = state.view?.clock;
  for (const node of document.querySelectorAll(".clock")) {
    if (!clock || Number(node.dataset.seat) !== clock.seat) {
      node.textContent = "";
      node.className = "clock";
      continue;
    }
    // the clock may wait (the pause after a hand) before it counts: until then it shows the full time
    const elapsed = Math.max(0, (performance.now() - state.clockAt) / 1000 - (clock.starts_in || 0));
    const left = clock.remaining - elapsed;
    const bank = Math.max(0, (clock.bank || 0) + Math.min(0, left));
    const seconds = left > 0 ? left : bank;
    node.className = `clock ${left > 0 ? "action" : "bank"}${seconds < 6 ? " low" : ""}`;
    node.textContent = `${left > 0 ? "" : "time bank "}${Math.ceil(seconds)} s`;
    const total = state.config?.action_time || 30;
    node.style.setProperty("--left", left > 0 ? `${Math.min(100, (100 * left) / total)}%` : "0%");
  }
}

function logEvent(event) {
  if (!event.text) return;
  const log = $("log");
  const kind = event.kind || "event";
  log.append(el("li", { class: `kind-${kind.replace(/\W+/g, "-")}`, data: { seq: event.seq, kind }, text: event.text }));
  while (log.children.length > 400) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Keep the showdown (cards shown, pots won) of each hand, and show it once the hand ends: the
 * next hand starts at once, so the table itself shows it only for a moment. */
function summarise(event, table) {
  const data = event.event || {};
  if (event.kind === "hand started") state.summary = [];
  else if (event.kind === "shown") {
    const who = table.seats.find((s) => s.seat === data.seat)?.name ?? `seat ${data.seat}`;
    state.summary.push(el("li", { class: "shown", data: { seat: data.seat } },
      el("span", { class: "who", text: who }),
      el("span", { class: "cards" }, ...(data.cards || []).map((c) => cardNode(c, true, false))),
      data.hand ? el("span", { class: "muted", text: data.hand }) : null));
  } else if (event.kind === "pot awarded") {
    state.summary.push(el("li", { class: "won", text: event.text }));
  } else if (event.kind === "hand ended") {
    $("last-hand-title").textContent = `Last hand (#${data.hand ?? ""})`;
    $("last-hand-lines").replaceChildren(...state.summary);
    $("last-hand").hidden = state.summary.length === 0;
    state.summary = [];
  }
}

/** A line of the page's own in the log (``kind`` names it, for tests and styles). */
function note(text, kind = "note") {
  const log = $("log");
  log.append(el("li", { class: "note", data: { note: kind }, text }));
  log.scrollTop = log.scrollHeight;
}

/** The server's words about the table (a hand voided, the table paused or resumed...): in the log, and
 * in the banner above the table for a while (a pause until the next notice). A notice told again on
 * reconnecting is shown once. */
let noticeTimer = null;
function showNotice(message) {
  const text = typeof message.text === "string" ? message.text : "";
  if (!text) return;
  const key = `${message.kind}|${message.seq}|${text}`;
  if (state.notices.has(key)) return;
  state.notices.add(key);
  const log = $("log");
  log.append(el("li", { class: "notice", data: { notice: String(message.kind ?? "") }, text }));
  log.scrollTop = log.scrollHeight;
  const banner = $("notice");
  banner.textContent = text;
  banner.dataset.kind = String(message.kind ?? "");
  banner.hidden = false;
  clearTimeout(noticeTimer);
  if (message.kind !== "paused") noticeTimer = setTimeout(() => { banner.hidden = true; }, 15000);
}

let errorTimer = null;
function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 5000);
}

function setStatus(stateName, text) {
  $("status").dataset.state = stateName;
  $("status").textContent = text;
}

setupForms();
connect();
window.addEventListener("resize", () => { if (state.view) renderSeats(); });
fetch("/api/variants").then((r) => r.json()).then((list) => {
  state.variants = list;
  if (state.config) renderHeader();
}).catch(() => {});
setInterval(tick, 250);
