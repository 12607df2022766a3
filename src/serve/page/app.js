// The browser table: a lobby that opens a room (a bundled ruleset, or a rule file pasted and
// checked by the server), then one WebSocket to the room in the seat protocol (hello, then a
// state after every move; answers {"choose": N}). Everything drawn comes from those messages:
// the deck's data from hello, the table as the seat's screen lays it out from each state. A
// spectator's hello has no seat: its states carry only the public zones and no moves.
const $ = (id) => document.getElementById(id);
const make = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
const params = new URLSearchParams(location.search);
// A seat's link carries its room and token in the fragment (`#room=...&token=...`), which the
// browser never sends to a server, so that no log or referrer holds the token. An older link
// with them in the query is moved to the fragment at once.
const seatLink = new URLSearchParams(location.hash.slice(1));
for (const key of ["room", "token"]) {
  if (params.get(key) && !seatLink.get(key)) seatLink.set(key, params.get(key));
  params.delete(key);
}
if (seatLink.get("token")) {
  const query = params.toString();
  history.replaceState(null, "", "/" + (query ? "?" + query : "") + "#" + seatLink.toString());
}
// The address of a seat's (or the spectators') link in room `code`.
const linkTo = (code, token) => location.origin + "/#room=" + code + "&token=" + token;
let cards = {};
// The seat this page plays, or null when it watches.
let mySeat = null;
let socket = null;
let room = null;
let myToken = null;

function status(text) { $("status").textContent = text; }

// Card faces are drawn by the server from the deck's data (`deck::face`, the same faces as the
// HTML rule sheet's): each card of hello carries its face as an SVG element, parsed here once.
// A card the hello does not describe gets a plain face with its id.
const SVG = "http://www.w3.org/2000/svg";
const faces = {};
function cardFace(id, c) {
  if (!(id in faces)) {
    // Parsed as HTML parses an inline <svg> (as the rule sheet holds it): SVG elements.
    // A four-colour pack, where the player chose it: the suit's ink swapped for its other.
    let svg = c.svg;
    const inks = svg && fourColour() && /data-ink="(#[0-9a-f]{6})" data-four="(#[0-9a-f]{6})"/.exec(svg);
    if (inks) svg = svg.replaceAll(inks[1], inks[2]);
    const parsed = svg && new DOMParser().parseFromString(svg, "text/html").body.firstElementChild;
    faces[id] = parsed && parsed.namespaceURI === SVG ? parsed : null;
  }
  if (faces[id]) return document.importNode(faces[id], true);
  const face = document.createElementNS(SVG, "svg");
  face.setAttribute("viewBox", "0 0 40 56");
  face.setAttribute("class", "face");
  const label = document.createElementNS(SVG, "text");
  Object.entries({ x: 20, y: 32, "text-anchor": "middle", "font-size": 9 })
    .forEach(([k, v]) => label.setAttribute(k, v));
  label.textContent = c.short + " " + c.face;
  face.append(label);
  return face;
}

// Whether the player chose a four-colour pack (kept on this browser).
const fourColour = () => localStorage.getItem("yaku-four-colour") === "1";

// A card as its tile: its face, with the full name (and suit and kinds) as its title and its
// label. `reached` marks what the chosen move would take.
function cardTile(id, tag = "span") {
  const c = cards[id] || { name: id, short: "?", face: id, suit_name: "", kinds: [], tone: 0 };
  const tile = make(tag, { className: "card" });
  tile.dataset.card = id;
  tile.title = c.name + (c.suit_name ? " · " + c.suit_name : "") +
    (c.kinds.length ? " · " + c.kinds.join(", ") : "");
  tile.append(cardFace(id, c));
  tile.setAttribute("aria-label", c.name + (c.suit_name ? ", " + c.suit_name : ""));
  return tile;
}

function faceDown(count) {
  return make("span", { className: "card back", textContent: "×" + count,
    title: count + " face down" });
}

function rowOf(ids, hidden, tag) {
  const row = make("div", { className: "cards" });
  ids.forEach((id) => row.append(cardTile(id, tag)));
  if (hidden) row.append(faceDown(hidden));
  return row;
}

function seatName(n) { return n === mySeat && mySeat !== null ? "you" : "seat " + (n + 1); }

// A seat's name as its table labels it (`you`, `greedy`, `friend`).
function nameOf(state, n) {
  return state.table?.panels.find((p) => p.seat === n)?.name || seatName(n);
}

// A zone's title by player: the protocol's `captured 0` is "captured · you", `hand 1` is
// "hand · greedy" (seats are numbered from 0 in the protocol and named on the page).
function zoneTitle(state, name) {
  const m = /^(.*) (\d+)$/.exec(name);
  return m ? m[1] + " · " + nameOf(state, Number(m[2])) : name;
}

// A seat's panel: its name and summary, its face-down cards, its piles by kind with counts, and
// the lines about it (yaku held and near, declarations, tallies).
function panel(p) {
  const box = make("section", { className: "panel" + (p.seat === mySeat ? " me" : "") });
  box.setAttribute("aria-label", p.name);
  box.append(make("h3", {}, make("span", { textContent: p.name }),
    make("small", { textContent: " " + p.summary })));
  const piles = make("div", { className: "piles" });
  for (const g of p.groups) {
    const pile = make("div", { className: "pile" });
    pile.append(make("h4", { textContent: g.label }), rowOf(g.cards, 0));
    piles.append(pile);
  }
  if (piles.childElementCount) box.append(piles);
  if (p.lines.length) {
    const lines = make("ul", { className: "lines" });
    p.lines.forEach((l) => lines.append(make("li", {
      textContent: l.trim(), className: l.startsWith(" ") ? "near" : "held" })));
    box.append(lines);
  }
  return box;
}

// Marks the cards the move `i` would take or reach; none when `i` is null.
let reaches = [];
function mark(i) {
  document.querySelectorAll(".card.reached").forEach((c) => c.classList.remove("reached"));
  if (i === null || !reaches[i]) return;
  for (const id of reaches[i]) {
    document.querySelectorAll('#center .card[data-card="' + id + '"]')
      .forEach((c) => c.classList.add("reached"));
  }
}

function choose(i) { socket.send(JSON.stringify({ choose: i })); }

function moveButton(node, i) {
  node.dataset.move = i;
  node.addEventListener("click", () => choose(i));
  node.addEventListener("focus", () => mark(i));
  node.addEventListener("mouseenter", () => mark(i));
  node.addEventListener("blur", () => mark(null));
  node.addEventListener("mouseleave", () => mark(null));
  return node;
}

// The seat's move log: each state carries the lines said since the one before it, and
// `log_from`, how many lines of the game's log came before them.
const MAX_LOG = 200;
let logLines = [];
let logStart = 0;
function keepLog(state) {
  if (state.log_from === undefined) {
    logLines = state.log || [];
    logStart = 0;
    return;
  }
  const kept = state.log_from - logStart;
  if (kept < 0 || kept > logLines.length) {
    // A log that does not follow on from what is held (a new connection): start again.
    logLines = [];
    logStart = state.log_from;
  } else {
    logLines.length = kept;
  }
  logLines.push(...(state.log || []));
  if (logLines.length > MAX_LOG) {
    logStart += logLines.length - MAX_LOG;
    logLines = logLines.slice(logLines.length - MAX_LOG);
  }
}

function drawHistory(state) {
  const t = $("history");
  t.replaceChildren();
  if (!state.history || state.history.length === 0) {
    $("history-box").hidden = true;
    return;
  }
  $("history-box").hidden = false;
  const head = make("tr", {}, make("th", { textContent: "Hand" }));
  state.scores.forEach((_, s) => head.append(make("th", { textContent: nameOf(state, s) })));
  t.append(head);
  for (const h of state.history) {
    const tr = make("tr", {}, make("td", { textContent: h.hand }));
    h.points.forEach((p, s) => tr.append(make("td", {
      textContent: (p > 0 ? "+" : "") + p + (h.winner === s && h.yaku ? " " + h.yaku.join(", ") : ""),
    })));
    t.append(tr);
  }
  const total = make("tr", { className: "total" }, make("td", { textContent: "Total" }));
  state.scores.forEach((s) => total.append(make("td", { textContent: s })));
  t.append(total);
}

// The state drawn last, drawn again when a choice of how cards look changes.
let drawnLast = null;

function draw(state) {
  drawnLast = state;
  // How many states were drawn: tests wait on it.
  document.body.dataset.states = Number(document.body.dataset.states || 0) + 1;
  const view = state.table;
  $("scores").textContent =
    (state.hands ? "Hand " + state.hand + " of " + state.hands + " · "
      : "Hand " + state.hand + (state.target !== undefined ? " (to " + state.target + ")" : "") + " · ") +
    state.scores.map((s, i) => nameOf(state, i) + " " + s).join(" · ");
  const others = $("others");
  others.replaceChildren();
  const center = $("center");
  center.replaceChildren();
  $("mine").replaceChildren();
  $("notes").replaceChildren();
  const hand = $("hand");
  hand.replaceChildren();
  reaches = state.reaches || [];
  const plays = {};
  state.legal.forEach((m, i) => { if (m.action === "play" && !(m.card in plays)) plays[m.card] = i; });
  if (view) {
    $("title").textContent = view.title;
    view.panels.slice(1).forEach((p) => others.append(panel(p)));
    if (view.panels[0]) $("mine").append(panel(view.panels[0]));
    center.append(make("h3", { textContent: view.center.title }), rowOf(view.center.cards, view.center.hidden));
    if (view.center.aside) {
      const [label, ids] = view.center.aside;
      center.append(make("h3", { textContent: label }), rowOf(ids, 0));
    }
    // Piles taken only whole (builds), each drawn apart under its value and owner.
    for (const pile of view.center.piles || []) {
      const box = make("div", { className: "pile" });
      box.append(make("h4", { textContent: pile.label }), rowOf(pile.cards, 0));
      center.append(box);
    }
    view.notes.forEach((n) => $("notes").append(make("li", { textContent: n })));
    hand.append(make("h3", { textContent: view.hand.title + " (" + view.hand.cards.length + ")" }));
    const row = make("div", { className: "cards" });
    for (const id of view.hand.cards) {
      const playable = id in plays;
      const tile = cardTile(id, playable ? "button" : "span");
      if (playable) {
        tile.type = "button";
        moveButton(tile, plays[id]);
      }
      row.append(tile);
    }
    if (view.hand.hidden) row.append(faceDown(view.hand.hidden));
    hand.append(row);
  } else {
    // A seat without a laid-out table: every zone as the protocol names it.
    for (const zone of state.zones) {
      if (zone.cards.length === 0 && !zone.hidden) continue;
      center.append(make("h3", { textContent: zoneTitle(state, zone.name) + " (" + (zone.cards.length + (zone.hidden || 0)) + ")" }),
        rowOf(zone.cards, zone.hidden));
    }
  }
  const log = $("log");
  keepLog(state);
  log.replaceChildren(...logLines.map((l) => make("li", { textContent: l })));
  // A spectator is sent no move log (a seat's log is narrated for that seat).
  $("log-box").hidden = mySeat === null && log.childElementCount === 0;
  // The latest move in view inside the log, without scrolling the table away.
  log.scrollTop = log.scrollHeight;
  drawHistory(state);
  const moves = $("moves");
  moves.replaceChildren();
  mark(null);
  // A hint belongs to one move: it goes when the state changes.
  $("hint-text").textContent = "";
  $("lesson").replaceChildren();
  $("lesson").hidden = true;
  $("hint-row").hidden = true;
  if (state.over) {
    positionOffered();
    $("prompt").textContent = "Game over";
    status("game over");
    document.title = "yaku: game over";
    return;
  }
  if (state.legal.length === 0) {
    $("prompt").textContent = (mySeat === null ? "Watching · " : "") +
      "Waiting for " + nameOf(state, state.to_act) + "…";
    return;
  }
  // What rides on the decision (what stopping takes, what the others are close to), where the
  // table says.
  $("prompt").textContent = state.stakes ? "Your move: " + state.stakes
    : Object.keys(plays).length ? "Your move: play a card" : "Your move";
  // The table's default move (the safe one: stop rather than play on) comes first and has the
  // focus, so that a stray Enter never takes a risk.
  const order = state.legal.map((_, i) => i);
  if (state.default !== undefined && state.default > 0) {
    order.splice(state.default, 1);
    order.unshift(state.default);
  }
  // Many amounts to bid or bet (an auction's 40 bids) are one stepper, not a wall of buttons.
  const bets = order.filter((i) => state.legal[i].action === "bet");
  const stepped = bets.length > STEPPER_FROM;
  for (const i of order) {
    const move = state.legal[i];
    if (move.action === "play" && plays[move.card] === i && view) continue;
    if (stepped && move.action === "bet") continue;
    const words = state.described?.[i] || describe(move);
    moves.append(moveButton(make("button", { type: "button", textContent: words }), i));
  }
  if (stepped) moves.append(betStepper(state, bets));
  offeredFirst = state.default;
  const first = document.querySelector('#moves [data-move="' + state.default + '"]') ||
    document.querySelector("[data-move]");
  first?.focus({ preventScroll: true });
  if (params.get("auto") === "first") document.querySelector('[data-move="0"]')?.click();
  // The bot's suggestion and its reason, on asking or (learning) at every move.
  $("hint-row").hidden = false;
  if ($("learn").checked) askHint();
}

// Asks the server what a bot would play here, and why; the answer is a `hint` message.
function askHint() { socket.send(JSON.stringify({ hint: true })); }

// A hint: its words under the moves, and the move it suggests outlined. Learning, the page
// shows first what the lesson explains that it has not shown before in this room (the game
// and how a hand goes, each choice, the deal, the scoring), as the terminal's `yaku learn` does.
function showHint(message) {
  $("hint-text").textContent = message.text;
  if ($("learn").checked && Array.isArray(message.lesson)) {
    const said = taught();
    const fresh = message.lesson.filter((part) => !said.includes(part.key));
    $("lesson").replaceChildren(...fresh.map((part) => lessonNode(part.text)));
    $("lesson").hidden = fresh.length === 0;
    said.push(...fresh.map((part) => part.key));
    sessionStorage.setItem("yaku-taught-" + room, JSON.stringify(said));
  }
  document.querySelectorAll(".suggested").forEach((n) => n.classList.remove("suggested"));
  if (Number.isInteger(message.choose)) {
    document.querySelectorAll('[data-move="' + message.choose + '"]')
      .forEach((n) => n.classList.add("suggested"));
    mark(message.choose);
  }
}

// The keys of the lesson parts this page has shown in this room.
function taught() {
  try {
    const said = JSON.parse(sessionStorage.getItem("yaku-taught-" + room) || "[]");
    return Array.isArray(said) ? said : [];
  } catch {
    return [];
  }
}

// A lesson part's text as elements: a line is a paragraph, lines starting "- " a list, and
// those starting "  - " a list inside the item before them.
function lessonNode(text) {
  const node = make("div");
  let list = null;
  let inner = null;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("  - ") && list?.lastChild) {
      if (!inner) {
        inner = make("ul");
        list.lastChild.append(inner);
      }
      inner.append(make("li", { textContent: line.slice(4) }));
    } else if (line.startsWith("- ")) {
      if (!list) {
        list = make("ul");
        node.append(list);
      }
      inner = null;
      list.append(make("li", { textContent: line.slice(2) }));
    } else {
      list = null;
      inner = null;
      node.append(make("p", { textContent: line }));
    }
  }
  return node;
}

// From this many amounts on, bids and bets are chosen with a stepper.
const STEPPER_FROM = 6;

// A stepper over the amounts `bets` (indices of legal moves): a slider with − and + (the arrow
// keys move it too) and one button that makes the move shown, the lowest amount at first (or
// the table's default, when it is one of them).
function betStepper(state, bets) {
  const sorted = [...bets].sort((a, b) => state.legal[a].amount - state.legal[b].amount);
  const start = Math.max(0, sorted.indexOf(state.default));
  const range = make("input", { type: "range", id: "bet-range", min: 0, max: sorted.length - 1, step: 1, value: start });
  range.setAttribute("aria-label", "amount");
  const button = make("button", { type: "button", id: "bet-choose" });
  const show = () => {
    const i = sorted[Number(range.value)];
    button.textContent = state.described?.[i] || describe(state.legal[i]);
    button.dataset.move = i;
    mark(i);
  };
  const by = (step) => () => {
    range.value = String(Math.min(sorted.length - 1, Math.max(0, Number(range.value) + step)));
    show();
  };
  range.addEventListener("input", show);
  button.addEventListener("click", () => choose(Number(button.dataset.move)));
  const less = make("button", { type: "button", textContent: "−", className: "step" });
  const more = make("button", { type: "button", textContent: "+", className: "step" });
  less.setAttribute("aria-label", "less");
  more.setAttribute("aria-label", "more");
  less.addEventListener("click", by(-1));
  more.addEventListener("click", by(1));
  show();
  return make("span", { className: "stepper" }, less, range, more, button);
}

// The end of a hand: its result by player, the scores, and a pause until the player goes on
// (the dialog is modal, so no move is made by a stray click). Not for spectators, nor for pages
// that play by themselves (`?auto=first`), nor at the game's end (the table says it is over).
let handsSeen = null;
function handEnd(state) {
  const played = state.history?.length || 0;
  // A connection's first state: the hands before it were seen (or are in the history table).
  if (handsSeen === null || played < handsSeen) handsSeen = played;
  if (played === handsSeen) return;
  handsSeen = played;
  // The last hand's result is the game's: the table says the game is over and shows the scores.
  if (mySeat === null || params.get("auto") || state.over) return;
  const h = state.history[played - 1];
  const hands = state.hands ? " of " + state.hands
    : state.target !== undefined ? " (to " + state.target + ")" : "";
  $("hand-end-title").textContent = "Hand " + h.hand + hands;
  $("hand-end-winner").textContent = h.winner === null || h.winner === undefined
    ? "No one wins the hand."
    : nameOf(state, h.winner) + " wins the hand" + (h.yaku?.length ? ": " + h.yaku.join(", ") : "") + ".";
  const rows = [make("tr", {}, make("th", { textContent: "" }),
    make("th", { textContent: "This hand" }), make("th", { textContent: "Total" }))];
  h.points.forEach((p, s) => rows.push(make("tr", {}, make("td", { textContent: nameOf(state, s) }),
    make("td", { className: "points", textContent: (p > 0 ? "+" : "") + p }),
    make("td", { className: "points", textContent: state.scores[s] }))));
  $("hand-end-points").replaceChildren(...rows);
  $("hand-end").showModal();
  $("hand-end-go").focus();
}

// The move the table offers first in the state drawn last (focused again after a summary).
let offeredFirst;

function describe(move) {
  const name = (id) => cards[id]?.name || id;
  switch (move.action) {
    case "play": return "Play " + name(move.card);
    case "capture": return "Take " + name(move.card);
    case "capture_set": return "Take " + move.cards.map(name).join(" + ");
    case "play_set": return "Play " + move.cards.map(name).join(" + ");
    case "build": return "Build " + move.value + " on " + move.cards.map(name).join(" + ");
    case "declare": return move.id + (move.card ? " (" + name(move.card) + ")" : "");
    case "bet": return "Bet " + move.amount;
    case "draw": return "Take " + move.tiles + " more";
    default: return JSON.stringify(move);
  }
}

// Whether this page's token made the room (the creator's): it may hand over a seat that has
// been away, as well as its own.
const madeHere = (code) => myToken !== null && localStorage.getItem("yaku-created-" + code) === myToken;

function join(code, token) {
  room = code;
  myToken = token;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/api/rooms/" + room + "/ws");
  // The first message is the token: it never travels in a URL.
  socket.onopen = () => socket.send(JSON.stringify({ token }));
  let welcomed = false;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error" && message.code === "token" && !welcomed) {
      socket.onclose = null;
      badLink(message.message);
      return;
    }
    if (message.type === "hello") {
      welcomed = true;
      cards = Object.fromEntries(message.cards.map((c) => [c.id, c]));
      for (const id of Object.keys(faces)) delete faces[id];
      // The choice of a four-colour pack, for decks that have one.
      $("four-colour-row").hidden = !message.cards.some((c) => c.svg?.includes("data-four="));
      // A spectator's hello names no seat.
      mySeat = Number.isInteger(message.seat) ? message.seat : null;
      document.body.dataset.watching = mySeat === null ? "yes" : "no";
      $("watching").hidden = mySeat !== null;
      status(message.name + (mySeat === null ? ", watching" : ", seat " + (mySeat + 1)));
      handOverChoices(message.seats);
      $("close-box").hidden = !madeHere(room);
    } else if (message.type === "state") {
      draw(message);
      handEnd(message);
    } else if (message.type === "hint") {
      showHint(message);
    } else if (message.type === "closed") {
      socket.onclose = null;
      ended("This room is closed", message.message);
    } else if (message.type === "error") {
      status(message.message);
    }
  };
  socket.onclose = () => {
    if (!welcomed) badLink("this link's room does not answer: the link may be mistyped, or the room expired");
    else status("disconnected: reload the page to come back to your seat");
  };
  $("sheet").src = "/api/rooms/" + room + "/rules";
  $("lobby").hidden = true;
  $("table").hidden = false;
}

// The seats this page may hand to a bot: its own, and the others when it made the room (the
// server hands one over only once it has been away long enough, and says why not otherwise).
function handOverChoices(seats) {
  const select = $("hand-over-seat");
  select.replaceChildren();
  for (let s = 0; s < seats; s++) {
    if (s === mySeat) select.prepend(new Option("my seat (seat " + (s + 1) + ")", s, true, true));
    else if (madeHere(room)) select.append(new Option("seat " + (s + 1), s));
  }
  $("hand-over").hidden = select.options.length === 0;
}

async function handOver(event) {
  event.preventDefault();
  const seat = Number($("hand-over-seat").value);
  const bot = $("hand-over-bot").value;
  const response = await fetch("/api/rooms/" + room + "/bot", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: myToken, seat, bot }),
  });
  const said = $("hand-over-said");
  if (!response.ok) {
    said.textContent = "Not handed over: " + await response.text();
    return;
  }
  const { watch } = await response.json();
  said.textContent = "Seat " + (seat + 1) + " is played by " + bot + " now.";
  if (seat !== mySeat) return;
  // This token no longer holds a seat: the page goes on as a spectator, with the watch token.
  socket.onclose = null;
  socket.close();
  history.replaceState(null, "", "/#room=" + room + "&token=" + watch);
  $("watching").textContent = "Watching: your seat (seat " + (seat + 1) + ") is played by " + bot + ".";
  join(room, watch);
}

async function create(body) {
  const response = await fetch("/api/rooms", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) { status(await response.text()); return; }
  const created = await response.json();
  const [[, token], ...others] = created.people;
  localStorage.setItem("yaku-created-" + created.room, token);
  // A reloaded page comes back to its seat.
  history.replaceState(null, "", (params.get("auto") ? "/?auto=" + params.get("auto") : "/") +
    "#room=" + created.room + "&token=" + token);
  const links = others.map(([seat, t]) => "seat " + (seat + 1) + " " + linkTo(created.room, t));
  const watch = linkTo(created.room, created.watch);
  $("invites").replaceChildren(...(links.length ? ["Invite: " + links.join("  ") + " · "] : []),
    "Watch: ", make("a", { id: "watch-link", href: watch, target: "_blank", rel: "noopener",
      textContent: watch }));
  join(created.room, token);
}

// The programs the server's operator lets rooms seat (`yaku serve --bot NAME=PROGRAM`).
let programs = [];

function seatChoices(ruleset) {
  const fieldset = $("seats");
  fieldset.replaceChildren(make("legend", { textContent: "Seats" }));
  for (let i = 0; i < ruleset.seats; i++) {
    const select = make("select");
    for (const who of i === 0 ? ["human"] : ["greedy", "random", "expert", ...programs, "human"]) {
      select.append(new Option(who === "human" ? (i === 0 ? "you" : "a friend (invite)") : who, who));
    }
    fieldset.append(make("label", { textContent: "Seat " + (i + 1) + " " }, select));
  }
}

// The pasted rule file: the gutter numbers its lines and marks those with findings.
let checked = null;
function gutter(marked = new Map()) {
  const lines = $("pasted").value.split("\n").length;
  const g = $("gutter");
  g.replaceChildren();
  for (let n = 1; n <= lines; n++) {
    const severity = marked.get(n);
    g.append(make("span", { textContent: n, className: severity ? "marked " + severity : "" }), "\n");
  }
}

let checks = 0;
async function check() {
  const text = $("pasted").value;
  // Only the latest check is shown, whichever answer comes first.
  const mine = ++checks;
  status("checking…");
  const response = await fetch("/api/validate", { method: "POST", body: text });
  if (mine !== checks) return;
  const findings = $("findings");
  findings.replaceChildren();
  if (!response.ok) { status(await response.text()); return; }
  const report = await response.json();
  if (mine !== checks) return;
  const marked = new Map();
  for (const d of report.diagnostics) {
    if (d.file !== "<pasted>") continue;
    for (let n = d.line; n <= Math.max(d.line, d.end_line); n++) {
      if (marked.get(n) !== "error") marked.set(n, d.severity);
    }
  }
  gutter(marked);
  for (const d of report.diagnostics) {
    const item = make("button", { type: "button", className: "finding " + d.severity });
    item.append(make("strong", { textContent: (d.file === "<pasted>" ? "" : d.file + ":") + d.line + ":" + d.column + " " }),
      make("span", { textContent: d.message }));
    if (d.text) item.append(make("pre", { textContent: d.text }));
    // Selects the finding's span in the text.
    item.addEventListener("click", () => {
      if (d.file !== "<pasted>") return;
      const lines = text.split("\n");
      const at = (line, col) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
      const area = $("pasted");
      area.focus();
      area.setSelectionRange(at(d.line, d.column), Math.max(at(d.end_line, d.end_column), at(d.line, d.column) + 1));
    });
    findings.append(item);
  }
  const select = $("ruleset");
  select.querySelector('option[value="@pasted"]')?.remove();
  if (report.valid) {
    checked = { text, ruleset: report.ruleset };
    findings.prepend(make("p", { className: "ok", textContent: "Valid: " + report.summary + ". Choose the seats and Play." }));
    // Its rule sheet, as the bundled games' rule sheets are shown.
    fetch("/api/rules", { method: "POST", body: text }).then((r) => r.ok ? r.text() : null).then((html) => {
      if (!html || checked?.text !== text) return;
      const frame = make("iframe", { title: "Rule sheet", className: "sheet", srcdoc: html });
      frame.setAttribute("sandbox", "allow-popups");
      findings.append(make("details", {}, make("summary", { textContent: "Rule sheet" }), frame));
    });
    select.append(new Option(report.ruleset.name + " (your rules)", "@pasted"));
    select.value = "@pasted";
    select.dispatchEvent(new Event("change"));
    status("the rules are valid");
  } else {
    checked = null;
    const errors = report.diagnostics.filter((d) => d.severity === "error").length;
    status(errors + (errors === 1 ? " error" : " errors") + " in the rules");
  }
}

async function lobby() {
  const list = await (await fetch("/api/rulesets")).json();
  programs = await (await fetch("/api/bots")).json();
  const select = $("ruleset");
  for (const r of list) select.append(new Option(r.name, r.id));
  // The game chosen last on this browser, else Koi-Koi, the table's first game (the list is in
  // alphabetical order).
  const last = localStorage.getItem("yaku-ruleset");
  const first = [last, "koikoi"].find((id) => list.some((r) => r.id === id));
  if (first) select.value = first;
  const show = () => {
    const pasted = select.value === "@pasted";
    const r = pasted ? checked.ruleset : list.find((x) => x.id === select.value);
    $("description").textContent = r.description;
    $("rules-link").hidden = pasted;
    $("rules-link").href = "/api/rules/" + r.id;
    seatChoices(r);
  };
  select.addEventListener("change", () => {
    if (select.value !== "@pasted") localStorage.setItem("yaku-ruleset", select.value);
    show();
  });
  show();
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const players = [...$("seats").querySelectorAll("select")].map((s) => s.value);
    const hands = Number($("hands").value) || undefined;
    if (select.value === "@pasted") create({ rules: checked.text, players, hands });
    else create({ ruleset: select.value, players, hands });
  });
  const area = $("pasted");
  area.addEventListener("input", () => gutter());
  area.addEventListener("scroll", () => { $("gutter").scrollTop = area.scrollTop; });
  $("check").addEventListener("click", check);
  $("upload").addEventListener("change", async () => {
    const file = $("upload").files[0];
    if (file) { area.value = await file.text(); gutter(); check(); }
  });
  // The bundled house rules, to start from: each is pasted as it is, to play or to change.
  const examples = await (await fetch("/api/house-rules")).json();
  const named = Object.fromEntries(list.map((r) => [r.id, r.name]));
  for (const h of examples) {
    $("examples").append(new Option(h.name + " (on " + (named[h.extends] || h.extends) + ")", h.id));
  }
  $("examples").addEventListener("change", () => {
    const h = examples.find((x) => x.id === $("examples").value);
    if (!h) return;
    area.value = h.text;
    gutter();
    check();
  });
  gutter();
  $("lobby").hidden = false;
}

$("hand-over-form").addEventListener("submit", handOver);
// Back at the table after a hand's summary: the move offered first has the focus again.
$("hand-end").addEventListener("close", () => {
  (document.querySelector('#moves [data-move="' + offeredFirst + '"]') ||
    document.querySelector("[data-move]"))?.focus({ preventScroll: true });
});
$("close-room").addEventListener("click", closeRoom);
// A page that can show no table any more (a link whose token holds no seat, a room closed):
// said, with the way back to the lobby.
function ended(title, why) {
  $("table").hidden = true;
  $("lobby").hidden = true;
  history.replaceState(null, "", "/");
  const back = make("a", { href: "/", textContent: "Start or join another game" });
  $("bad-link").replaceChildren(make("h2", { textContent: title }),
    make("p", { textContent: why.charAt(0).toUpperCase() + why.slice(1) + "." }), make("p", {}, back));
  $("bad-link").hidden = false;
  status(title.toLowerCase());
}

// A link whose token holds no seat (mistyped, or the seat handed to a bot).
const badLink = (why) => ended("This link does not open a seat", why);

// The room's creator may close it for everyone.
async function closeRoom() {
  if (!confirm("Close this room for every player? Nobody can move in it again.")) return;
  const response = await fetch("/api/rooms/" + room + "/close", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: myToken }),
  });
  if (!response.ok) $("close-said").textContent = "Not closed: " + await response.text();
}

// A finished game's position, for every page that shows the table (a spectator's too): the
// server gives one only once the game is over, since a position is written as its hand's deal.
function positionOffered() {
  if (!$("copy-position").disabled) return;
  $("copy-position").disabled = false;
  $("position-at").disabled = false;
  $("position-note").textContent = "The game is over: copy its position after any move, to open with yaku position.";
}

async function copyPosition() {
  const at = $("position-at").value;
  const response = await fetch("/api/rooms/" + room + "/position" + (at === "" ? "" : "?at=" + Number(at)));
  const said = $("position-said");
  if (!response.ok) {
    said.textContent = "No position: " + await response.text();
    return;
  }
  const found = await response.json();
  $("position-at").max = found.actions;
  $("position-at").value = found.at;
  const text = $("position-text");
  text.value = found.position;
  text.hidden = false;
  // Copying needs a secure page (https or this machine); elsewhere the text is selected to copy.
  try {
    await navigator.clipboard.writeText(found.position);
    said.textContent = "Copied the position after move " + found.at + " of " + found.actions + ".";
  } catch {
    text.select();
    said.textContent = "The position after move " + found.at + " of " + found.actions + " is selected: copy it.";
  }
  document.body.dataset.position = found.at;
}
$("copy-position").addEventListener("click", copyPosition);

// Another seat's link pasted into this tab changes only the fragment: the page starts again.
window.addEventListener("hashchange", () => location.reload());

if (seatLink.get("room") && seatLink.get("token")) {
  join(seatLink.get("room"), seatLink.get("token"));
} else if (params.get("ruleset")) {
  create({ ruleset: params.get("ruleset"), players: (params.get("players") || "human,greedy").split(","),
    hands: Number(params.get("hands")) || undefined });
} else {
  lobby();
}

// Learning is a choice kept on this browser: every move then comes with the bot's suggestion.
$("learn").checked = params.get("learn") === "1" || localStorage.getItem("yaku-learn") === "1";
$("learn").addEventListener("change", () => {
  localStorage.setItem("yaku-learn", $("learn").checked ? "1" : "");
  if ($("learn").checked && !$("hint-row").hidden) askHint();
});
$("hint-button").addEventListener("click", askHint);
$("four-colour").checked = fourColour();
$("four-colour").addEventListener("change", () => {
  localStorage.setItem("yaku-four-colour", $("four-colour").checked ? "1" : "");
  for (const id of Object.keys(faces)) delete faces[id];
  if (drawnLast) draw(drawnLast);
});
