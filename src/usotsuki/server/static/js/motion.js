// Cards that travel: dealt from the middle to each seat, played from a seat to the felt,
// drawn from the stock, flushed off the felt. Only the Web Animations API (no styles in
// markup: the Content Security Policy allows none), and nothing when the reader asked for
// reduced motion.
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

function seatEl(seat, me) {
  if (seat === me) return document.getElementById("hand");
  return document.getElementById(`seat-${seat}`);
}

function centre(node) {
  if (!node) return null;
  const r = node.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function fly(from, to, count = 1, delay = 0) {
  const a = centre(from);
  const b = centre(to);
  if (!a || !b) return;
  for (let i = 0; i < Math.min(count, 4); i++) {
    const card = document.createElement("span");
    card.className = "card back small flying";
    card.setAttribute("aria-hidden", "true");
    document.body.appendChild(card);
    const w = card.offsetWidth / 2;
    const h = card.offsetHeight / 2;
    const anim = card.animate([
      { transform: `translate(${a.x - w}px, ${a.y - h}px) rotate(-8deg)`, opacity: 1 },
      { transform: `translate(${b.x - w}px, ${b.y - h}px) rotate(4deg)`, opacity: 0.9 },
    ], { duration: 380, delay: delay + i * 70, easing: "cubic-bezier(.2,.7,.3,1)", fill: "both" });
    anim.onfinish = () => card.remove();
    anim.oncancel = () => card.remove();
  }
}

export function motion(e, { me }) {
  if (reduced.matches) return;
  const felt = document.getElementById("felt");
  const field = document.getElementById("field") || felt;
  const stock = document.getElementById("stock") || felt;
  switch (e.type) {
    case "round_dealt":
      (e.hand_sizes || []).forEach((n, seat) => { if (n) fly(felt, seatEl(seat, me), Math.min(n, 2), seat * 60); });
      break;
    case "played": fly(seatEl(e.seat, me), field, e.count); break;
    case "drew": fly(stock, seatEl(e.seat, me), e.count); break;
    case "gave": fly(seatEl(e.giver, me), seatEl(e.receiver, me), e.count); break;
    case "flushed": fly(field, stock, Math.min(e.count, 3)); break; // L8: under the stock
    default: break;
  }
}

// A big moment (a revolution, a J-back, an 8-cut, a rate lock): its word over the felt for
// a moment, and its flag flashes. It pops and fades; with reduced motion it only shows.
export function bigMoment(layer, text, detail, kind) {
  if (!layer) return;
  const word = document.createElement("div");
  word.className = `moment moment-${kind}`;
  const strong = document.createElement("strong");
  strong.textContent = text;
  word.appendChild(strong);
  if (detail) {
    const small = document.createElement("span");
    small.textContent = detail;
    word.appendChild(small);
  }
  layer.replaceChildren(word);
  const gone = () => { if (word.parentNode) word.remove(); };
  if (reduced.matches) { setTimeout(gone, 1800); return; }
  const anim = word.animate([
    { transform: "scale(.4) rotate(-6deg)", opacity: 0 },
    { transform: "scale(1.15) rotate(2deg)", opacity: 1, offset: 0.18 },
    { transform: "scale(1)", opacity: 1, offset: 0.3 },
    { transform: "scale(1)", opacity: 1, offset: 0.8 },
    { transform: "scale(1.05) translateY(-12px)", opacity: 0 },
  ], { duration: 1800, easing: "ease-out", fill: "both" });
  anim.onfinish = gone;
  anim.oncancel = gone;
}

// The flag of a rule that has just taken effect: a short glow (none with reduced motion).
export function flashFlag(node) {
  if (!node || reduced.matches) return;
  node.animate([{ boxShadow: "0 0 0 0 rgba(242,193,78,.9)" }, { boxShadow: "0 0 0 10px rgba(242,193,78,0)" }],
    { duration: 900, iterations: 2 });
}
