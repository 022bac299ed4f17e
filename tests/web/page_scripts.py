"""Snippets of JavaScript the browser tests evaluate in the game page to find and press the
controls of legal actions (every control that sends an action carries it as ``data-action``)."""

# The state message the page holds now (None before the first one).
STATE = "() => window.__starcom ? window.__starcom.state : null"
# Marks the enabled elements that send legal action `i`; returns how many there are.
MARK = """(i) => {
  document.querySelectorAll('[data-test-target]').forEach((el) => el.removeAttribute('data-test-target'));
  const want = JSON.stringify(window.__starcom.state.legal[i].action);
  let n = 0;
  for (const el of document.querySelectorAll('[data-action]')) {
    if (el.dataset.action === want && !el.disabled) { el.setAttribute('data-test-target', String(n)); n += 1; }
  }
  return n;
}"""
# Every action the page shows a control for.
SHOWN = "() => [...document.querySelectorAll('[data-action]')].map((el) => el.dataset.action)"
