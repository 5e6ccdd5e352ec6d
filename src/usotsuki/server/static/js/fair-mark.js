// The replay page's fair-deal mark: the record's deals checked in this page by the
// independent verifier (fairness.js, Web Crypto), not taken from the server; for a game
// this browser sat at, also against the commitment it was shown and the contribution it
// gave (contribute.js).
import { api } from "./api.js";
import { seenAt } from "./contribute.js";
import { verifyRecord } from "./fairness.js";
import { t } from "./i18n.js";

const DIFFERS = new Set(["commitment", "seed", "hand", "stock"]);

function mark(state, text) {
  const box = document.getElementById("fair-mark");
  if (!box) return;
  box.dataset.state = state; // verified, differs, none, checking
  box.textContent = text;
  box.hidden = false;
}

// Against what this browser saw at the table: null when it agrees or saw nothing.
function againstSeen(record, table, game) {
  const seen = table ? seenAt(table, game) : null;
  if (!seen) return null;
  if (seen.commitment !== record.fairness.commitment) return t("fair.seenDiffers");
  if (seen.value && !record.fairness.contributions.some((c) => c.value === seen.value)) return t("fair.ownMissing");
  return "";
}

// Check a record (`record`) or a table's game (`table`, `game`: its record is fetched).
export async function showFairMark({ record = null, table = null, game = null }) {
  mark("checking", t("fair.checking"));
  try {
    const rec = record || await api(`/api/tables/${encodeURIComponent(table)}/games/${encodeURIComponent(game)}/record`);
    const answer = await verifyRecord(rec);
    if (answer.verified) {
      const seen = againstSeen(rec, table, game);
      if (seen) mark("differs", seen);
      else mark("verified", seen === "" ? t("fair.verifiedSeen") : t("fair.verified"));
    } else if (DIFFERS.has(answer.error.place)) {
      mark("differs", t("fair.differs", { detail: answer.error.message }));
    } else {
      mark("none", t("fair.none"));
    }
  } catch {
    mark("none", t("fair.none"));
  }
}
