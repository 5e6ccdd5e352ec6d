// A tiny element builder: el("button", {id: "x", onclick: fn}, "text", child).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // Through the CSSOM: the Content Security Policy refuses style attributes.
    else if (key === "style") for (const [k, v] of Object.entries(value)) node.style.setProperty(k, v);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// Re-render a container, keeping keyboard focus on the control with the same id.
export function rerender(container, ...children) {
  const active = document.activeElement;
  const focusId = active && container.contains(active) ? active.id : null;
  container.replaceChildren(...children.flat(Infinity).filter(Boolean));
  if (focusId) {
    const again = document.getElementById(focusId);
    if (again) again.focus({ preventScroll: true });
  }
}
