// An event's standings (GET /api/events/ID): players, stacks, places, ICM equity, payouts, the level clock.
"use strict";

(() => {
  const eventId = decodeURIComponent(window.location.pathname.split("/").pop());
  const byId = (id) => document.getElementById(id);

  function clockText(e) {
    const c = e.clock;
    const blinds = `${c.small_blind}/${c.big_blind}${c.ante ? ` ante ${c.ante}` : ""}`;
    let left = "";
    if (c.remaining !== null) {
      left = c.unit === "hands" ? ` · ${c.remaining} hands to the next level`
        : ` · ${Math.floor(c.remaining / 60)}:${String(c.remaining % 60).padStart(2, "0")} to the next level`;
    }
    return `${c.on_break ? "Break, then level" : "Level"} ${c.level}: ${blinds}${left} · ${e.hands} hands played`;
  }

  function show(e) {
    byId("event-name").textContent = `${e.name} standings`;
    byId("event-status").textContent = `${e.status} · ${e.registered}/${e.seats} players · ${e.structure}`;
    byId("clock").textContent = e.status === "registering" ? "Registration is open."
      : e.status === "finished" ? `Finished after ${e.hands} hands.` : clockText(e);
    const winner = byId("winner");
    winner.hidden = !e.winner;
    winner.textContent = e.winner ? `Winner: ${e.winner}` : "";
    byId("standings").tBodies[0].replaceChildren(...e.players.map((p) => el("tr", { data: { player: p.name } },
      el("td", { class: "place", text: p.places || "-" }),
      el("td", { text: `${p.name}${p.bot ? " (bot)" : ""}` }),
      el("td", { text: p.seat === null ? "" : p.seat }),
      el("td", { class: "stack", text: p.stack }),
      el("td", { class: "equity", text: p.equity === null ? "" : p.equity.toFixed(2) }),
      el("td", { class: "prize", text: p.prize === null ? "" : p.prize }))));
    byId("payouts").tBodies[0].replaceChildren(...e.payouts.map((amount, i) => el("tr", {},
      el("td", { text: i + 1 }), el("td", { text: amount }))));
    const link = byId("table-link");
    if (e.table) {
      link.href = `/table/${encodeURIComponent(e.table)}`;
      link.hidden = false;
    }
  }

  async function load() {
    const response = await fetch(`/api/events/${encodeURIComponent(eventId)}`);
    if (!response.ok) return;
    const e = await response.json();
    show(e);
    return e.status;
  }

  document.addEventListener("DOMContentLoaded", async () => {
    await load();
    setInterval(load, 1500);
  });
})();
