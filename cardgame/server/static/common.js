// Helpers shared by the lobby and the table page. Server text is only ever set with textContent.
"use strict";

/** A new element: el("li", {class: "x", data: {seat: 2}, text: "Ann"}, child, ...). */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** The stakes of a table's variant parameters, e.g. "1/2", "2/4 limit", "ante 1". */
function stakesOf(params) {
  const p = params || {};
  let text = "";
  if (p.small_blind != null && p.big_blind != null) text = `${p.small_blind}/${p.big_blind}`;
  else if (p.small_bet != null && p.big_bet != null) text = `${p.small_bet}/${p.big_bet} limit`;
  else if (p.button_blind != null) text = `button ${p.button_blind}`;
  else if (p.min_bet != null) text = `min bet ${p.min_bet}`;
  if (p.ante) text += `${text ? ", " : ""}ante ${p.ante}`;
  return text;
}

/** A table's parameters with its variant's defaults filled in (variants: GET /api/variants). */
function paramsOf(config, variants) {
  const v = (variants || []).find((x) => x.code === config.variant || x.name === config.variant);
  return { ...(v ? v.params : {}), ...(config.params || {}) };
}
