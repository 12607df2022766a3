// The browser table: a lobby that opens a room, then one WebSocket to the room in the seat
// protocol (hello, then a state after every move; answers {"choose": N}). Everything drawn
// comes from the deck and the ruleset's data the server sends.
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let cards = {};
let declarations = {};
let mySeat = 0;
let socket = null;

function status(text) { $("status").textContent = text; }

function cardName(id) {
  const c = cards[id];
  return c ? c.name : id;
}

function cardBox(id) {
  const c = cards[id] || { name: id, suit: "", kinds: [] };
  const box = document.createElement("span");
  box.className = "card " + c.kinds.join(" ");
  box.textContent = c.name;
  const suit = document.createElement("small");
  suit.textContent = c.suit;
  box.append(suit);
  return box;
}

function describe(move) {
  switch (move.action) {
    case "play": return "Play " + cardName(move.card);
    case "capture": return "Take " + cardName(move.card);
    case "capture_set": return "Take " + move.cards.map(cardName).join(" + ");
    case "declare": {
      const name = declarations[move.id] || move.id;
      return move.card ? name + " (" + cardName(move.card) + ")" : name;
    }
    case "bet": return "Bet " + move.amount;
    case "draw": return move.tiles === 1 ? "Take 1 more" : "Take " + move.tiles + " more";
    default: return JSON.stringify(move);
  }
}

function seatName(n) { return n === mySeat ? "you" : "seat " + (n + 1); }

function zoneTitle(name) {
  return name.replace(/(\d+)$/, (m) => seatName(Number(m)));
}

function draw(state) {
  $("scores").textContent =
    (state.hands ? "Hand " + state.hand + " of " + state.hands + " · " : "") +
    state.scores.map((s, i) => seatName(i) + " " + s).join(" · ");
  const zones = $("zones");
  zones.replaceChildren();
  for (const zone of state.zones) {
    if (zone.cards.length === 0 && !zone.hidden) continue;
    const section = document.createElement("div");
    section.className = "zone";
    const title = document.createElement("h3");
    title.textContent = zoneTitle(zone.name) + " (" + (zone.cards.length + (zone.hidden || 0)) + ")";
    const row = document.createElement("div");
    row.className = "cards";
    zone.cards.forEach((id) => row.append(cardBox(id)));
    if (zone.hidden) {
      const more = document.createElement("span");
      more.className = "hidden-count";
      more.textContent = zone.hidden + " face down";
      row.append(more);
    }
    section.append(title, row);
    zones.append(section);
  }
  const moves = $("moves");
  moves.replaceChildren();
  if (state.over) {
    $("prompt").textContent = "Game over";
    status("game over");
    document.title = "yaku: game over";
    return;
  }
  if (state.legal.length === 0) {
    $("prompt").textContent = "Waiting for " + seatName(state.to_act) + "…";
    return;
  }
  $("prompt").textContent = "Your move";
  state.legal.forEach((move, i) => {
    const b = document.createElement("button");
    b.textContent = describe(move);
    b.addEventListener("click", () => socket.send(JSON.stringify({ choose: i })));
    moves.append(b);
  });
  moves.firstChild.focus();
  if (params.get("auto") === "first") moves.firstChild.click();
}

function join(room, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(scheme + "//" + location.host + "/api/rooms/" + room + "/ws?token=" + token);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") {
      cards = Object.fromEntries(message.cards.map((c) => [c.id, c]));
      declarations = Object.fromEntries(message.declarations);
      mySeat = message.seat;
      status(message.name + ", seat " + (message.seat + 1));
    } else if (message.type === "state") {
      draw(message);
    } else if (message.type === "error") {
      status(message.message);
    }
  };
  socket.onclose = () => status("disconnected: reload the page to come back to your seat");
  $("lobby").hidden = true;
  $("table").hidden = false;
}

async function create(ruleset, players, hands) {
  const response = await fetch("/api/rooms", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ruleset, players, hands }),
  });
  if (!response.ok) { status(await response.text()); return; }
  const created = await response.json();
  const [[, token], ...others] = created.people;
  // A reloaded page comes back to its seat.
  history.replaceState(null, "", "?room=" + created.room + "&token=" + token);
  if (others.length) {
    $("invites").textContent = "Invite: " + others.map(([seat, t]) =>
      "seat " + (seat + 1) + " " + location.origin + "/?room=" + created.room + "&token=" + t).join("  ");
  }
  join(created.room, token);
}

// The programs the server's operator lets rooms seat (`yaku serve --bot NAME=PROGRAM`).
let programs = [];

function seatChoices(ruleset) {
  const fieldset = $("seats");
  fieldset.replaceChildren(Object.assign(document.createElement("legend"), { textContent: "Seats" }));
  for (let i = 0; i < ruleset.seats; i++) {
    const label = document.createElement("label");
    label.textContent = "Seat " + (i + 1) + " ";
    const select = document.createElement("select");
    for (const who of i === 0 ? ["human"] : ["greedy", "random", "expert", ...programs, "human"]) {
      select.append(new Option(who === "human" ? (i === 0 ? "you" : "a friend (invite)") : who, who));
    }
    label.append(select);
    fieldset.append(label);
  }
}

async function lobby() {
  const list = await (await fetch("/api/rulesets")).json();
  programs = await (await fetch("/api/bots")).json();
  const select = $("ruleset");
  for (const r of list) select.append(new Option(r.name, r.id));
  const show = () => {
    const r = list.find((x) => x.id === select.value);
    $("description").textContent = r.description;
    $("rules-link").href = "/api/rules/" + r.id;
    seatChoices(r);
  };
  select.addEventListener("change", show);
  show();
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    const players = [...$("seats").querySelectorAll("select")].map((s) => s.value);
    const hands = Number($("hands").value) || undefined;
    create(select.value, players, hands);
  });
  $("lobby").hidden = false;
}

if (params.get("room") && params.get("token")) {
  join(params.get("room"), params.get("token"));
} else if (params.get("ruleset")) {
  create(params.get("ruleset"), (params.get("players") || "human,greedy").split(","),
    Number(params.get("hands")) || undefined);
} else {
  lobby();
}
