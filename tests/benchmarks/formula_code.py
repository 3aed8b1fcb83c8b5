"""A long, realistic reactor formula: functions, objects, strings, templates, comments."""

from __future__ import annotations

_BLOCK = """\
// Step {i}: normalise the card holder's record and flag what needs review.
async function step{i}(req, context) {{
  const {{ card, holder }} = req.args;
  const limit = context.configuration.LIMIT_{i} ?? 1000;
  if (!card || card.number.length < 12) {{
    throw new Error(`step {i}: card missing for ${{holder?.id ?? "unknown"}}`);
  }}
  /* masked output keeps the last four digits */
  const masked = "**** " + card.number.slice(-4);
  return {{ masked, over: card.amount > limit, step: {i} }};
}}

"""

_FOOTER = """\
module.exports = async function (req) {
  const results = [];
  for (const step of [step0, step1, step2]) {
    results.push(await step(req, { configuration: req.configuration }));
  }
  return { raw: { results } };
};
"""


def formula_code(lines: int = 2000) -> str:
    """JavaScript of at least `lines` lines that parses without errors."""
    block_lines = _BLOCK.count("\n")
    blocks = (lines - _FOOTER.count("\n")) // block_lines + 1
    return "".join(_BLOCK.format(i=i) for i in range(blocks)) + _FOOTER
