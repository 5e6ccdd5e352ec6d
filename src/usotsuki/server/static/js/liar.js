// The Liar Game at the table: the field face down, the order in force, plays, doubts,
// class exchanges. What may be played comes from the server's legal summary (L6, O1-O7).
import { cardEl, rankLabel, stackEl } from "./cards.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

let selected = [];
let rate = null;
let chosenFor = null;

export function selectedCards() { return selected; }

export function toggleCard(code) {
  selected = selected.includes(code) ? selected.filter((c) => c !== code) : [...selected, code];
}

export function resetIfNew(stateKey) {
  if (chosenFor !== stateKey) { selected = []; rate = null; chosenFor = stateKey; }
}

// A house rule's flag on the felt, its meaning as a tooltip; "on" said in words too.
function badge(on, label, id, help) {
  return el("span", { class: `badge flag${on ? " on" : ""}`, id, title: help, "aria-label": `${label}: ${on ? t("liar.flagOn") : t("liar.flagOff")}. ${help}` },
    label, on ? ` ${t("liar.flagOn")}` : "");
}

export function liarCenter(ctx) {
  const { view, names } = ctx;
  const rules = view.rules;
  const reversed = view.order === "reversed";
  const flags = [el("span", { class: `badge order${reversed ? " on" : ""}`, id: "order", title: t("liar.orderHelp") },
    reversed ? t("liar.orderReversed") : t("liar.orderNormal"))];
  if (rules.revolution) flags.push(badge(view.revolution, t("liar.revolution"), "flag-revolution", t("opt.revolution.desc")));
  if (rules.jack_back) flags.push(badge(view.jack_back, t("liar.jackBack"), "flag-jack-back", t("opt.jack_back.desc")));
  if (rules.binding) flags.push(badge(view.bound, t("liar.bound"), "flag-bound", t("opt.binding.desc")));
  if (rules.eight_cut) flags.push(badge(view.eight_cut, t("liar.eightCut"), "flag-eight-cut", t("opt.eight_cut.desc")));
  const parts = [el("div", { class: "flags" }, flags)];
  parts.push(el("div", { class: "stock", id: "stock" }, stackEl(Math.min(view.stock_size, 3), t("liar.stock", { n: view.stock_size }))));
  parts.push(el("div", { class: "field", id: "field", role: "group", "aria-label": t("liar.field") },
    view.field.length
      ? view.field.slice(-4).map((play, i, shown) => el("div", { class: `field-play${i === shown.length - 1 ? " current" : ""}` },
        stackEl(play.count), el("span", { class: "play-label" },
          el("span", { class: "who" }, names[play.seat]), " ",
          el("strong", { class: "rate" }, rankLabel(play.rate)))))
      : el("span", { class: "muted" }, t("liar.emptyField"))));
  if (view.field.length > 4) parts.push(el("div", { class: "muted small" }, t("liar.fieldMore", { n: view.field.length - 4 })));
  return parts;
}

// The last doubt: the play face up, each card that is not the declared rate marked a lie.
export function liarReveal(ctx, d) {
  const { names } = ctx;
  const verdict = d.truthful ? "liar.doubtTruthful" : "liar.doubtLie";
  const you = (seat, key) => (seat === ctx.me ? `${key}.you` : key);
  return el("section", { class: `reveal ${d.truthful ? "true" : "false"}`, id: "reveal", role: "dialog", "aria-labelledby": "reveal-title" },
    el("h3", { id: "reveal-title" }, t("liar.doubtHeading")),
    el("p", {}, t("liar.doubtBy", { doubter: names[d.doubter], doubted: names[d.doubted] })),
    el("div", { class: "cards" }, d.cards.map((c) => {
      const lie = c[0] !== d.rate;
      const card = cardEl(c, { small: true, highlight: !lie });
      if (lie) { card.classList.add("lie"); card.setAttribute("aria-label", `${card.getAttribute("aria-label")} (${t("liar.lieMark")})`); }
      return card;
    })),
    el("p", { class: "verdict" }, t(verdict, { doubted: names[d.doubted], rate: rankLabel(d.rate) })),
    el("p", { class: "loser" }, t(you(d.drawer, "liar.drew"), { name: names[d.drawer], n: d.drawn })));
}

export function liarControls(ctx) {
  const { view, legal, send, names } = ctx;
  if (!legal) return [];
  const parts = [];
  const me = view.seat;
  if (legal.give) {
    const owed = view.owed.find((o) => o.giver === me);
    const count = Math.min(owed ? owed.count : 0, view.hand.length);
    parts.push(el("p", { class: "hint" }, t("liar.giveHint", { n: count, name: names[owed?.receiver] ?? "?" })));
    const ok = selected.length === count;
    parts.push(el("button", { type: "button", class: "primary", id: "give", disabled: !ok, dataset: { count },
      onclick: () => { if (ok) send(`give ${selected.join(" ")}`); } },
    t("liar.give", { n: count, name: names[owed?.receiver] ?? "?" })));
    return parts;
  }
  if (legal.accept) {
    const current = view.field[view.field.length - 1];
    parts.push(el("p", { class: "hint" }, t("liar.finalDoubt", { name: names[current?.seat] ?? "?" })));
  }
  const play = legal.play;
  if (play) {
    if (!view.field.length) parts.push(el("p", { class: "hint" }, t("liar.lead")));
    parts.push(el("p", { class: "hint" }, t("liar.playHint"), " ",
      play.counts.length > 1 || play.counts[0] !== 1
        ? el("span", { class: "muted" }, t("liar.counts", { counts: play.counts.join(", ") })) : null));
    if (rate !== null && !play.rates.includes(rate)) rate = null;
    parts.push(el("div", { class: "pick-step", role: "group", "aria-label": t("liar.rate") },
      el("span", { class: "label" }, t("liar.rate")),
      el("div", { class: "pick-options rates", id: "rates" }, play.rates.map((r) => el("button", {
        type: "button", class: `pick${rate === r ? " chosen" : ""}`, id: `rate-${r}`,
        "aria-pressed": rate === r ? "true" : "false", dataset: { rate: r },
        onclick: () => { rate = r; ctx.redraw(); },
      }, rankLabel(r))))));
    const ok = rate !== null && play.counts.includes(selected.length);
    parts.push(el("button", { type: "button", class: "primary", id: "play", disabled: !ok, dataset: { counts: play.counts.join(" ") },
      onclick: () => { if (ok) send(`play ${selected.join(" ")} as ${rate}`); } },
    selected.length ? t("liar.play", { n: selected.length, rate: rate ? rankLabel(rate) : "…" })
      : t("liar.playNone", { rate: rate ? rankLabel(rate) : "…" })));
  }
  const row = [];
  if (legal.pass) {
    row.push(el("button", { type: "button", class: "secondary", id: "pass", "aria-keyshortcuts": "P", onclick: () => send("pass") },
      view.stock_size > 0 ? t("liar.pass") : t("liar.passEmpty")));
  }
  if (legal.doubt) {
    row.push(el("button", { type: "button", class: "danger", id: "doubt", "aria-keyshortcuts": "D", onclick: () => send("doubt") }, t("liar.doubt")));
  }
  if (legal.accept) {
    row.push(el("button", { type: "button", class: "primary", id: "accept", "aria-keyshortcuts": "A", onclick: () => send("accept") }, t("liar.accept")));
  }
  if (row.length) parts.push(el("div", { class: "button-row" }, row));
  return parts;
}

// Whether hand cards can be selected now: for a play or a class exchange.
export function selectable(legal) { return Boolean(legal && (legal.play || legal.give)); }

export function liarSeatExtra(view, seat) {
  const out = [];
  const place = view.classes.indexOf(seat);
  if (place >= 0) out.push(el("span", { class: "badge class", title: t("opt.classes.desc") }, t("seat.class", { n: place + 1 })));
  return out;
}
