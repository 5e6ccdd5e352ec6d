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

// A house rule's flag over the felt, its meaning as a tooltip: a rule in force is filled
// and says so in words; a rule that is waiting is an outline, marked off in words too.
function badge(on, label, id, help, detail = "") {
  const state = on ? t("liar.flagOn") : t("liar.flagOff");
  return el("span", { class: `badge flag${on ? " on" : " off"}`, id, title: help, "aria-label": `${label}: ${detail || state}. ${help}` },
    el("span", { class: "flag-mark", "aria-hidden": "true" }, on ? "●" : "○"), " ", label,
    on ? el("span", { class: "flag-state" }, detail || state) : null);
}

const NORMAL_ORDER = "3456789TJQKA2";

// O6: the rate the next play must declare on a locked field (the next one up in the order
// in force), null when none is left.
export function lockedRate(view) {
  const last = view.field[view.field.length - 1];
  if (!view.bound || !last) return null;
  const order = view.order === "reversed" ? [...NORMAL_ORDER].reverse().join("") : NORMAL_ORDER;
  return order[order.indexOf(last.rate) + 1] ?? null;
}

// The flags row over the felt: the order in force, then each house rule of the table.
export function liarFlags(ctx) {
  const { view } = ctx;
  const rules = view.rules;
  const reversed = view.order === "reversed";
  const flags = [el("span", { class: `badge order${reversed ? " on" : ""}`, id: "order", title: t("liar.orderHelp") },
    reversed ? t("liar.orderReversed") : t("liar.orderNormal"))];
  if (rules.revolution) flags.push(badge(view.revolution, t("liar.revolution"), "flag-revolution", t("opt.revolution.desc")));
  if (rules.jack_back) flags.push(badge(view.jack_back, t("liar.jackBack"), "flag-jack-back", t("opt.jack_back.desc")));
  if (rules.binding) {
    const next = lockedRate(view);
    const detail = view.bound ? (next ? t("liar.boundNext", { rate: rankLabel(next) }) : t("liar.boundNone")) : "";
    flags.push(badge(view.bound, t("liar.bound"), "flag-bound", t("opt.binding.desc"), detail));
  }
  if (rules.eight_cut) flags.push(badge(view.eight_cut, t("liar.eightCut"), "flag-eight-cut", t("opt.eight_cut.desc")));
  return flags;
}

const SHOWN_PLAYS = 3; // the field's last plays on the felt (the rest counted)

export function liarCenter(ctx) {
  const { view, names } = ctx;
  const parts = [];
  parts.push(el("div", { class: "stock", id: "stock" }, stackEl(Math.min(view.stock_size, 3), t("liar.stock", { n: view.stock_size }))));
  parts.push(el("div", { class: "field", id: "field", role: "group", "aria-label": t("liar.field") },
    view.field.length
      ? view.field.slice(-SHOWN_PLAYS).map((play, i, shown) => el("div", { class: `field-play${i === shown.length - 1 ? " current" : ""}` },
        stackEl(play.count), el("span", { class: "play-label", title: names[play.seat] },
          el("span", { class: "who" }, names[play.seat]),
          el("strong", { class: "rate" }, rankLabel(play.rate)))))
      : el("span", { class: "muted" }, t("liar.emptyField"))));
  if (view.field.length > SHOWN_PLAYS) parts.push(el("div", { class: "muted small" }, t("liar.fieldMore", { n: view.field.length - SHOWN_PLAYS })));
  return parts;
}

// The last doubt: the play face up, each card that is not the declared rate marked a lie.
export function liarReveal(ctx, d) {
  const { names } = ctx;
  const verdict = d.truthful ? "liar.doubtTruthful" : "liar.doubtLie";
  const you = (seat, key) => (seat === ctx.me ? `${key}.you` : key);
  const by = d.doubter === ctx.me ? "liar.doubtBy.you" : d.doubted === ctx.me ? "liar.doubtBy.yours" : "liar.doubtBy";
  return el("section", { class: `reveal ${d.truthful ? "true" : "false"}`, id: "reveal", role: "dialog", "aria-labelledby": "reveal-title" },
    el("h3", { id: "reveal-title" }, t("liar.doubtHeading")),
    el("p", {}, t(by, { doubter: names[d.doubter], doubted: names[d.doubted] })),
    el("p", { class: "verdict" }, t(you(d.doubted, verdict), { doubted: names[d.doubted], rate: rankLabel(d.rate) })),
    el("div", { class: "cards" }, d.cards.map((c) => {
      const lie = c[0] !== d.rate;
      const card = cardEl(c, { small: true, highlight: !lie });
      if (lie) { card.classList.add("lie"); card.setAttribute("aria-label", `${card.getAttribute("aria-label")} (${t("liar.lieMark")})`); }
      return card;
    })),
    d.drawer === null || d.drawer === undefined ? null
      : el("p", { class: "loser" }, t(you(d.drawer, "liar.drew"), { name: names[d.drawer], n: d.drawn })));
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
        ? el("span", { class: "muted", id: "counts" }, countsText(play.counts)) : null));
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

// The counts a play may have, said as a person would: "1 to 13 cards", "exactly 3 cards".
export function countsText(counts) {
  const first = counts[0];
  const last = counts[counts.length - 1];
  if (counts.length === 1) return t("liar.countsExact", { n: first });
  if (last - first + 1 === counts.length) return t("liar.countsRange", { from: first, to: last });
  return t("liar.counts", { counts: counts.join(", ") });
}

// O7 classes by place in the class order (first first): the Daifugo titles, 大富豪 to 大貧民.
export function classTitle(place, n) {
  if (!place) return "–";
  if (place === 1) return t("class.1");
  if (place === n) return t("class.last");
  if (place === 2 && n >= 4) return t("class.2");
  if (place === n - 1 && n >= 4) return t("class.secondLast");
  return t("class.middle");
}

// O7: who gives whom how many cards before the next game, from the class order.
export function exchangePairs(classes) {
  if (classes.length >= 4) return [[classes[0], classes[classes.length - 1], 2], [classes[1], classes[classes.length - 2], 1]];
  return classes.length >= 2 ? [[classes[0], classes[classes.length - 1], 1]] : [];
}

// Whether hand cards can be selected now: for a play or a class exchange.
export function selectable(legal) { return Boolean(legal && (legal.play || legal.give)); }

export function liarSeatExtra(view, seat) {
  const out = [];
  const place = view.classes.indexOf(seat);
  if (place >= 0) out.push(el("span", { class: "badge class", title: t("opt.classes.desc") }, classTitle(place + 1, view.classes.length)));
  return out;
}
