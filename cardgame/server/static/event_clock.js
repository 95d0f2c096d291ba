// The level clock of a tournament's table (GET /api/tables/ID/event): level, blinds and ante, what is
// left of the level or break; hidden at a table that plays for no event.
"use strict";

(() => {
  const tableId = decodeURIComponent(window.location.pathname.split("/").pop());

  function left(clock) {
    if (clock.remaining === null) return "last level";
    if (clock.unit === "hands") return `${clock.remaining} hand${clock.remaining === 1 ? "" : "s"} to the next level`;
    const s = Math.max(0, clock.remaining);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")} to the next level`;
  }

  function text(e) {
    const c = e.clock;
    const blinds = `${c.small_blind}/${c.big_blind}${c.ante ? ` ante ${c.ante}` : ""}`;
    if (e.status === "finished") return `${e.name}: finished, ${e.winner} wins`;
    if (c.on_break) return `${e.name}: break · then level ${c.level}: ${blinds} · ${left(c)}`;
    let out = `${e.name}: level ${c.level}: ${blinds} · ${left(c)}`;
    if (c.until_break) out += ` · break in ${Math.floor(c.until_break / 60)}:${String(c.until_break % 60).padStart(2, "0")}`;
    return out;
  }

  // A player moved to another table of the event (or to another seat at this one): this page follows them
  // there, with their token.
  async function follow(e) {
    const token = localStorage.getItem(`cardgame.event.${e.id}`);
    if (!token || e.status !== "running") return;
    const response = await fetch(`/api/events/${encodeURIComponent(e.id)}/seat`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
    if (!response.ok) return;
    const where = await response.json();
    if (where.table !== tableId) {
      localStorage.setItem(`cardgame.token.${where.table}`, token);
      window.location.href = `/table/${encodeURIComponent(where.table)}`;
    } else if (typeof state !== "undefined" && state.you !== where.seat && !state.resuming && state.ws
               && state.ws.readyState === WebSocket.OPEN) {  // a new seat at this table (the final table's draw)
      state.resuming = true;
      state.ws.send(JSON.stringify({ type: "resume", token }));
    }
  }

  async function load(box) {
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/event`);
      if (!response.ok) return false;
      const e = await response.json();
      await follow(e);
      box.replaceChildren(document.createTextNode(text(e) + " · "),
        el("a", { href: `/event/${encodeURIComponent(e.id)}`, text: "standings" }));
      box.hidden = false;
      return true;
    } catch (error) {
      return true;
    }
  }

  document.addEventListener("DOMContentLoaded", async () => {
    const box = document.getElementById("event-clock");
    if (box && await load(box)) setInterval(() => load(box), 1000);
  });
})();
