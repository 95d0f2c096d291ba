// The lobby: list the tables (GET /api/tables) and create one (POST /api/tables).
"use strict";

const $ = (id) => document.getElementById(id);
let variants = [];
let botNames = null;  // from GET /api/bots when the server has it; else a typed name per seat

async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

async function loadTables() {
  let tables;
  try {
    tables = await getJSON("/api/tables");
  } catch (error) {
    $("no-tables").hidden = false;
    $("no-tables").textContent = `Could not load the tables: ${error.message}`;
    return;
  }
  if (!Array.isArray(tables)) tables = tables.tables || [];
  $("no-tables").hidden = tables.length > 0;
  $("no-tables").textContent = "No tables yet: create one.";
  $("tables").tBodies[0].replaceChildren(...tables.map(tableRow));
}

function tableRow(t) {
  const c = t.config || {};
  const players = t.players || [];
  const names = players.map((p) => `${p.name}${p.bot ? " (bot)" : ""}`).join(", ");
  // a table another server process drives (sharing the database) opens on that server
  const elsewhere = typeof t.url === "string" && /^https?:\/\//.test(t.url);
  const href = elsewhere ? t.url : `/table/${encodeURIComponent(t.id)}`;
  return el("tr", { data: { table: t.id } },
    el("td", {}, el("a", { href, text: c.name || `Table ${t.id}` })),
    el("td", { text: t.variant }),
    el("td", { text: stakesOf(paramsOf(c, variants)) }),
    el("td", { text: `${c.min_buy_in}–${c.max_buy_in}` }),
    el("td", { class: "players", text: `${players.length}/${c.seats}${names ? `: ${names}` : ""}` }),
    el("td", { text: t.hands ?? 0 }),
    el("td", {}, el("a", { href, text: "Open" })));
}

async function loadVariants() {
  variants = await getJSON("/api/variants");
  const select = $("variant");
  select.replaceChildren(...variants.map((v, i) => el("option", {
    value: i, text: v.code ? `${v.name} (${v.code})` : v.name,
  })));
  const nt = variants.findIndex((v) => v.code === "NT");
  if (nt >= 0) select.value = String(nt);
  select.onchange = showVariant;
  showVariant();
}

function currentVariant() {
  return variants[Number($("variant").value)];
}

/** The builder's parameters as inputs holding their defaults; only scalars can be typed. */
function showVariant() {
  const v = currentVariant();
  $("variant-description").textContent = v.description || "";
  const inputs = [];
  for (const [name, value] of Object.entries(v.params || {})) {
    const label = name.replaceAll("_", " ");
    const data = { param: name, default: JSON.stringify(value) };
    if (typeof value === "boolean") {
      inputs.push(el("label", { class: "inline" }, el("input", { type: "checkbox", checked: value, data }), label));
    } else if (typeof value === "number") {
      inputs.push(el("label", {}, label, el("input", { type: "number", value, data })));
    } else if (value === null || typeof value === "string") {
      inputs.push(el("label", {}, label, el("input", { value: value ?? "", placeholder: "default", data })));
    }
  }
  $("params").replaceChildren(...inputs);
  const seats = $("seats");
  seats.max = v.max_players;
  if (Number(seats.value) > v.max_players) seats.value = v.max_players;
  showBotSeats();
}

function showBotSeats() {
  const seats = Math.max(2, Math.min(Number($("seats").value) || 2, currentVariant()?.max_players || 10));
  const previous = botChoices();
  const rows = [];
  for (let seat = 0; seat < seats; seat++) {
    const data = { botSeat: seat };
    const input = botNames
      ? el("select", { data }, el("option", { value: "", text: "(open seat)" }),
        ...botNames.map((b) => el("option", { value: b, text: b })))
      : el("input", { data, placeholder: "open seat, or a bot's name" });
    if (previous[seat]) input.value = previous[seat];
    rows.push(el("label", {}, `Seat ${seat}`, input));
  }
  $("bots").replaceChildren(...rows);
}

function botChoices() {
  const bots = {};
  for (const input of document.querySelectorAll("[data-bot-seat]")) {
    if (input.value.trim()) bots[input.dataset.botSeat] = input.value.trim();
  }
  return bots;
}

function formBody() {
  const params = {};
  for (const input of document.querySelectorAll("[data-param]")) {
    const fallback = JSON.parse(input.dataset.default);
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") value = input.value === "" ? fallback : Number(input.value);
    else value = input.value === "" ? fallback : /^-?\d+$/.test(input.value) ? Number(input.value) : input.value;
    if (value !== fallback) params[input.dataset.param] = value;  // only what differs from the default
  }
  const number = (id) => ($(id).value === "" ? undefined : Number($(id).value));
  const body = {
    variant: currentVariant().code || currentVariant().name,
    params,
    seats: number("seats"),
    min_buy_in: number("min_buy_in"),
    max_buy_in: number("max_buy_in"),
    action_time: number("action_time"),
    time_bank: number("time_bank"),
    max_misses: number("max_misses"),
    bots: botChoices(),
    bot_buy_in: number("bot_buy_in"),
    bot_delay: number("bot_delay"),
    hand_pause: number("hand_pause"),
    seed: number("seed") ?? null,
  };
  if ($("name").value.trim()) body.name = $("name").value.trim();
  return body;
}

async function create(event) {
  event.preventDefault();
  const box = $("create-error");
  box.hidden = true;
  $("create-submit").disabled = true;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(formBody()),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 201) {
      location.href = `/table/${encodeURIComponent(answer.id)}`;
      return;
    }
    box.textContent = answer.error || `The server answered HTTP ${response.status}.`;
    box.hidden = false;
  } catch (error) {
    box.textContent = `Could not create the table: ${error.message}`;
    box.hidden = false;
  } finally {
    $("create-submit").disabled = false;
  }
}

async function start() {
  $("refresh").onclick = loadTables;
  $("create").addEventListener("submit", create);
  $("seats").addEventListener("input", showBotSeats);
  try {
    const names = await getJSON("/api/bots");
    if (Array.isArray(names)) botNames = names.map(String);
  } catch { /* this server lists no bots: type a name */ }
  await loadVariants();
  await loadTables();
  setInterval(loadTables, 10000);
}

start();
