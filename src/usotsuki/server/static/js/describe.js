// The table's log in words: each event as a sentence in the reader's language, the
// reader's own moves in the second person. Used by the table page and the lessons.
import { callText, rankLabel, suitSymbol } from "./cards.js";
import { sentences, t } from "./i18n.js";

export function cardsText(cards) { return cards.map((c) => rankLabel(c.slice(0, -1)) + suitSymbol(c.slice(-1))).join(" "); }

// An event as a sentence of the log, or null for one the log leaves out. `who`: the
// reader's seat (`me`, null for a spectator), a seat's name (`name`) and the seat as a
// sentence's object (`objectName`: "you" for the reader).
export function describeEvent(e, { me, name: nm, objectName }) {
  // A line about `seat`: in the second person when it is you ("You pass.").
  const say = (key, seat, params) => t(seat === me ? `${key}.you` : key, params);
  switch (e.type) {
    case "game_started": return t("ev.game_started", { n: e.game + 1 });
    case "round_dealt": return t("ev.round_dealt", { n: e.round + 1 });
    case "called": return say("ev.called", e.seat, { name: nm(e.seat), call: callText(e.call) });
    case "challenged": return sentences(say("ev.challenged", e.challenger, { name: nm(e.challenger), other: objectName(e.caller) }),
      t(e.call_true ? "ev.callTrue" : "ev.callFalse", { call: callText(e.call) }), say("ev.loses", e.loser, { name: nm(e.loser) }),
      e.eliminated ? say("ev.out", e.loser, { name: nm(e.loser) }) : null);
    case "game_over": return t("ev.game_over");
    case "contributions_closed": return e.missing.length ? t("ev.no_contribution", { names: e.missing.map(nm).join(", ") }) : null;
    case "revealed": return t("ev.revealed");
    case "options": return t("ev.options", { chat: t(e.chat ? "ev.options.on" : "ev.options.off"), hints: t(e.hints ? "ev.options.on" : "ev.options.off") });
    case "stand_in": return t("ev.stand_in", { name: nm(e.seat), reason: t(`reason.${e.reason}`) });
    case "timeout": return say("ev.timeout", e.seat, { name: nm(e.seat) });
    case "played": return say("ev.played", e.seat, { name: nm(e.seat), n: e.count, rate: rankLabel(e.rate) });
    case "passed": return say("ev.passed", e.seat, { name: nm(e.seat) });
    case "drew": return e.seat === me ? null : t("ev.drew", { name: nm(e.seat), n: e.count });
    case "doubted": return sentences(say("ev.doubted", e.doubter, { name: nm(e.doubter), other: objectName(e.doubted) }),
      t(e.truthful ? "ev.truthful" : "ev.lie", { rate: rankLabel(e.rate) }));
    case "accepted": return say("ev.accepted", e.seat, { name: nm(e.seat) });
    case "flushed": return t("ev.flushed", { n: e.count });
    case "order_changed": return t("ev.order_changed", { order: t(e.reversed ? "liar.orderWord.reversed" : "liar.orderWord.normal"), cause: t(`cause.${e.cause}`) });
    case "bound": return t("ev.bound", { rate: rankLabel(e.rate) });
    case "gave": return say("ev.gave", e.giver, { name: nm(e.giver), other: objectName(e.receiver), n: e.count });
    case "dealt": return e.seat === me ? t("ev.dealt") : null;
    case "drew_cards": return e.seat === me ? t("ev.drew_cards", { cards: cardsText(e.cards), n: e.cards.length }) : null;
    case "gave_cards": return e.giver === me ? null : t("ev.gave_cards", { name: nm(e.giver), other: objectName(e.receiver), cards: cardsText(e.cards) });
    default: return null;
  }
}

