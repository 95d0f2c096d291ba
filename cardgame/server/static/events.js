// The lobby's tournaments: list them (GET /api/events), register (POST /api/events/ID/register); the
// seat token kept for the event's table page, which resumes with it. Server text only via textContent.
"use strict";

(() => {
  const byId = (id) => document.getElementById(id);
  const key = (id) => `cardgame.event.${id}`;

  // The table the player sits at (an event may play at several), with their token.
  async function play(e) {
    const token = localStorage.getItem(key(e.id));
    let table = e.table;
    const response = await fetch(`/api/events/${encodeURIComponent(e.id)}/seat`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
    if (response.ok) table = (await response.json()).table;
    if (token && table) localStorage.setItem(`cardgame.token.${table}`, token);
    window.location.href = `/table/${encodeURIComponent(table)}`;
  }

  async function register(e) {
    const box = byId("event-error");
    box.hidden = true;
    const name = byId("event-name").value.trim() || localStorage.getItem("cardgame.name") || "";
    const response = await fetch(`/api/events/${encodeURIComponent(e.id)}/register`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      box.textContent = body.error || `HTTP ${response.status}`;
      box.hidden = false;
      return;
    }
    localStorage.setItem(key(e.id), body.token);
    localStorage.setItem("cardgame.name", name);
    load();
  }

  function row(e) {
    const mine = localStorage.getItem(key(e.id)) !== null;
    const status = e.status === "finished" ? `finished: ${e.winner} wins` : e.status;
    const buttons = el("td", {});
    if (e.status === "registering" && !mine) {
      buttons.append(el("button", { type: "button", class: "small", data: { register: e.id }, text: "Register",
        onclick: () => register(e) }));
    } else if (e.status === "registering") {
      buttons.append(el("span", { class: "muted", text: "registered" }));
    }
    if (e.status === "running" && mine) {
      buttons.append(el("button", { type: "button", class: "small", data: { play: e.id }, text: "Play",
        onclick: () => play(e) }));
    } else if (e.table) {
      buttons.append(el("a", { href: `/table/${encodeURIComponent(e.table)}`, text: "watch" }), " ");
    }
    buttons.append(" ", el("a", { href: `/event/${encodeURIComponent(e.id)}`, text: "standings" }));
    return el("tr", { data: { event: e.id, status: e.status } },
      el("td", { text: `${e.name} (${e.variant}, ${e.structure})` }),
      el("td", { text: e.stack }),
      el("td", { text: e.payouts.join(" / ") }),
      el("td", { class: "registered", text: `${e.registered}/${e.seats}` }),
      el("td", { class: "status", text: status }),
      buttons);
  }

  async function load() {
    let events = [];
    try {
      const response = await fetch("/api/events");
      if (response.ok) events = await response.json();
    } catch (error) {
      return;
    }
    byId("no-events").hidden = events.length > 0;
    byId("events").tBodies[0].replaceChildren(...events.map(row));
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!byId("events")) return;
    byId("event-name").value = localStorage.getItem("cardgame.name") || "";
    load();
    setInterval(load, 2000);
  });
})();
