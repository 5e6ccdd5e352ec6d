// Home page: choose the game, house rules and seats; create the table and sit at seat 0.
import { api, lastName, onRetrying, rememberName, rememberSeat } from "./api.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { chosenName, me, onMe, rename } from "./me.js";
import { onRatedChange, rated } from "./rated.js";

// Presentation of each option; the server checks every value (and the combinations).
const OPTIONS = {
  bluff: [
    { name: "max_cards", kind: "int", value: 5, min: 1, max: 13 },
    { name: "dealer", kind: "seat", value: 0 }, // shown as seats 1..n, sent as 0..n-1 (B4)
    // B13: a short deck of the `ranks` highest ranks ("9–A · 24" for 6).
    { name: "ranks", kind: "select", value: 13,
      choices: [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((r) => [r, `${"23456789TJQKA"[13 - r]}–A (${4 * r})`]) },
  ],
  liar: [
    { name: "multi", kind: "bool", value: false },
    { name: "revolution", kind: "bool", value: false, needs: "multi" }, // O2 needs O1
    { name: "eight_cut", kind: "bool", value: false },
    { name: "jack_back", kind: "bool", value: false },
    { name: "six_up", kind: "bool", value: false, needs: "jack_back" }, // O5 needs O4
    { name: "binding", kind: "bool", value: false },
    { name: "classes", kind: "bool", value: false },
    { name: "final_doubt", kind: "bool", value: true },
    { name: "deal_all", kind: "bool", value: false },
    // The server takes any size: past 52 / players every card is dealt (L3).
    { name: "hand_size", kind: "int", value: 9, min: 1, max: 52 },
    { name: "turn_limit", kind: "int", value: null, min: 1, max: 100000 },
  ],
};

const form = document.getElementById("create");
const seatsList = document.getElementById("seats");
const optionsBox = document.getElementById("options");
const errorBox = document.getElementById("create-error");
// A 503 while creating is asked again (api.js): say so meanwhile.
onRetrying((on) => {
  if (on) errorBox.textContent = t("net.retrying");
  else if (errorBox.textContent === t("net.retrying")) errorBox.textContent = "";
});
let bots = { bluff: [], liar: [] };
let seats = ["you", "bot", "bot"];

function game() { return form.elements.game.value; }

function defaultBot(levels) { return levels.includes("normal") ? "normal" : levels[0]; }

function renderOptions(keep = false) {
  // On a language switch the options are redrawn with the values already chosen.
  const before = {};
  if (keep) {
    for (const input of optionsBox.querySelectorAll("input, select")) {
      before[input.id] = input.type === "checkbox" ? input.checked : input.value;
    }
  }
  optionsBox.replaceChildren();
  for (const opt of OPTIONS[game()]) {
    const row = document.createElement("label");
    row.className = `option option-${opt.kind === "seat" ? "select" : opt.kind}`;
    const input = document.createElement(opt.kind === "select" || opt.kind === "seat" ? "select" : "input");
    input.name = `opt-${opt.name}`;
    input.id = `opt-${opt.name}`;
    if (opt.kind === "select") {
      for (const [value, label] of opt.choices) input.appendChild(new Option(label, String(value)));
      input.value = String(opt.value);
    } else if (opt.kind === "seat") {
      seats.forEach((_, i) => input.appendChild(new Option(t("home.dealerSeat", { n: i + 1 }), String(i))));
      input.value = String(opt.value);
    } else if (opt.kind === "bool") {
      input.type = "checkbox";
      input.checked = opt.value;
    } else {
      input.type = "number";
      input.min = opt.min;
      input.max = opt.max;
      input.value = opt.value ?? "";
      input.inputMode = "numeric";
    }
    if (input.id in before) {
      if (opt.kind === "bool") input.checked = before[input.id];
      else if (opt.kind !== "seat" || Number(before[input.id]) < seats.length) input.value = before[input.id];
    }
    const text = document.createElement("span");
    text.innerHTML = `<strong></strong><small></small>`;
    text.querySelector("strong").textContent = t(`opt.${opt.name}`);
    text.querySelector("small").textContent = t(`opt.${opt.name}.desc`);
    row.append(input, text);
    optionsBox.appendChild(row);
  }
  linkNeeds();
  const games = document.createElement("label");
  games.className = "option option-int match-games";
  games.hidden = game() !== "liar";
  games.innerHTML = `<input type="number" id="opt-games" min="1" max="50" value="${before["opt-games"] ?? 3}"><span><strong></strong></span>`;
  games.querySelector("strong").textContent = t("home.games");
  optionsBox.appendChild(games);
  const classes = document.getElementById("opt-classes");
  const sync = () => { games.hidden = !(classes && classes.checked); };
  if (classes) classes.addEventListener("change", sync);
  sync();
}

// A rule that needs another (O2 needs O1, O5 needs O4): ticking it ticks the one it needs,
// unticking that one unticks it, and each says so beside its box.
function linkNeeds() {
  for (const opt of OPTIONS[game()].filter((o) => o.needs)) {
    const box = document.getElementById(`opt-${opt.name}`);
    const needed = document.getElementById(`opt-${opt.needs}`);
    if (!box || !needed) continue;
    box.setAttribute("aria-describedby", `needs-${opt.name}`);
    const note = document.createElement("small");
    note.className = "needs";
    note.id = `needs-${opt.name}`;
    note.textContent = t("home.needs", { rule: t(`opt.${opt.needs}`) });
    box.parentElement.querySelector("span").appendChild(note);
    box.addEventListener("change", () => { if (box.checked) needed.checked = true; });
    needed.addEventListener("change", () => { if (!needed.checked) box.checked = false; });
  }
}

function renderSeats() {
  const levels = bots[game()];
  seatsList.replaceChildren();
  seats.forEach((kind, i) => {
    const li = document.createElement("li");
    li.className = "seat-row";
    const label = document.createElement("span");
    label.className = "seat-label";
    label.textContent = t("home.seat", { n: i + 1 });
    li.appendChild(label);
    if (i === 0) {
      const you = document.createElement("strong");
      you.textContent = t("home.you");
      li.appendChild(you);
    } else {
      const select = document.createElement("select");
      select.id = `seat-${i}`;
      select.setAttribute("aria-label", t("home.seat", { n: i + 1 }));
      const friend = new Option(t("home.friend"), "friend");
      select.appendChild(friend);
      for (const level of levels) {
        select.appendChild(new Option(t("home.botLevel", { level: t(`bot.${level}`) }), `bot:${level}`));
      }
      if (kind === "friend") select.value = "friend";
      else if (kind.startsWith("bot:") && levels.includes(kind.slice(4))) select.value = kind;
      else select.value = `bot:${defaultBot(levels)}`;
      seats[i] = select.value;
      select.addEventListener("change", () => { seats[i] = select.value; syncClock(); });
      li.appendChild(select);
      if (seats.length > 2) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "secondary small";
        remove.textContent = t("home.removeSeat");
        remove.setAttribute("aria-label", `${t("home.removeSeat")}: ${t("home.seat", { n: i + 1 })}`);
        remove.addEventListener("click", () => { seats.splice(i, 1); renderSeats(); });
        li.appendChild(remove);
      }
    }
    seatsList.appendChild(li);
  });
  document.getElementById("add-seat").disabled = seats.length >= 8;
  syncClock();
  const dealer = document.getElementById("opt-dealer");
  if (dealer && dealer.options.length !== seats.length) renderOptions(true);
}

// A turn clock only matters with people at the table, and a rated table always has one.
function syncClock() {
  document.getElementById("clock-field").hidden = !rated() && !seats.some((s, i) => i > 0 && s === "friend");
}

function renderClock() {
  for (const option of document.getElementById("turn-seconds").options) {
    option.textContent = option.value === "off" ? t("home.clockOff") : t("home.clockSeconds", { n: option.value });
  }
}

function readRules() {
  const rules = {};
  for (const opt of OPTIONS[game()]) {
    const input = document.getElementById(`opt-${opt.name}`);
    if (opt.kind === "bool") {
      if (input.checked !== opt.value) rules[opt.name] = input.checked;
    } else if (input.value.trim() !== "") {
      const value = Number(input.value);
      if (value !== opt.value) rules[opt.name] = Number.isInteger(value) ? value : input.value;
    }
  }
  return rules;
}

async function create(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const name = form.elements.name.value.trim();
  if (!name) { errorBox.textContent = t("home.needName"); form.elements.name.focus(); return; }
  rememberName(name);
  const rules = readRules();
  const ranked = rated();
  const body = {
    game: game(),
    rules,
    seats: seats.map((s, i) => ({ bot: i > 0 && s.startsWith("bot:") ? s.slice(4) : null })),
  };
  if (rules.classes) body.games = Number(document.getElementById("opt-games").value) || 1;
  const friends = seats.some((s, i) => i > 0 && s === "friend");
  const clock = document.getElementById("turn-seconds").value;
  if (friends || ranked) body.turn_seconds = clock === "off" ? null : Number(clock);
  if (ranked) body.rated = true;
  if (document.getElementById("public").checked) body.visibility = "public"; // listed in the lobby
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    // The name typed here is the one you go by (the header's chip shows it).
    const who = await me().catch(() => null);
    if (who && who.name !== name) await rename(name);
    const created = await api("/api/tables", { method: "POST", body, retry: true });
    const joined = await api(`/api/invites/${encodeURIComponent(created.invite)}/join`,
      { method: "POST", body: { name, seat: 0 }, retry: true });
    rememberSeat(created.table_id, {
      seat: joined.seat, token: joined.token, host_token: created.host_token, invite: created.invite,
    });
    // You and bots only: nobody to wait for, the game starts at once.
    if (!friends) {
      await api(`/api/tables/${encodeURIComponent(created.table_id)}/start`,
        { method: "POST", body: { token: joined.token }, retry: true });
    }
    location.href = `/table.html?t=${encodeURIComponent(created.table_id)}`;
  } catch (e) {
    errorBox.textContent = e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message);
    button.disabled = false;
  }
}

async function main() {
  initPage();
  form.elements.name.value = lastName();
  // Your identity's name (a guest's default one until you choose), unless you typed already.
  let typed = false;
  form.elements.name.addEventListener("input", () => { typed = true; });
  onMe((who) => { if (!typed && chosenName(who)) form.elements.name.value = chosenName(who); });
  onRatedChange(syncClock);
  for (const g of ["bluff", "liar"]) {
    try { bots[g] = await api(`/api/bots/${g}`); } catch (e) { bots[g] = ["random"]; }
  }
  for (const radio of form.elements.game) {
    radio.addEventListener("change", () => { renderOptions(); renderSeats(); });
  }
  document.getElementById("add-seat").addEventListener("click", () => {
    if (seats.length < 8) { seats.push(`bot:${defaultBot(bots[game()])}`); renderSeats(); }
  });
  form.addEventListener("submit", create);
  onLangChange(() => { renderOptions(true); renderSeats(); renderClock(); });
  renderOptions();
  renderSeats();
  renderClock();
  await me().catch(() => {});
  document.body.dataset.ready = "1";
}

main();
