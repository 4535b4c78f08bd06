'use strict';
// Text for the console: words wrapped to a width, and rows as aligned columns. Every command's
// messages, --help and tables use these two.

/**
 * The words of `text` in lines of at most `width` characters (a longer word stands alone). The
 * first line starts with `first`, the others with `indent`; a prefix with text is followed by a space.
 */
function wrapLines(text, width, { first = '', indent = '' } = {}) {
  const lines = [];
  let line = first;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.trim() && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else {
      line += (line.trim() ? ' ' : '') + word;
    }
  }
  return [...lines, line];
}

/** A long message word-wrapped to `width` columns, as one string; continuation lines get `indent`. */
function wrap(text, { width = 100, first = '', indent = '    ' } = {}) {
  return wrapLines(text, width, { first, indent }).join('\n');
}

/**
 * Rows ({ head, rows }) as aligned plain-text columns: the head, a rule of dashes under it unless
 * `rule` is false, then the rows; every line starts with `indent` and has no trailing spaces.
 */
function table({ head, rows }, { indent = '', rule = true } = {}) {
  const widths = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `${indent}${cells.map((c, i) => String(c).padEnd(widths[i])).join('  ')}`.trimEnd();
  const ruleLine = rule ? [line(widths.map((w) => '-'.repeat(w)))] : [];
  return [line(head), ...ruleLine, ...rows.map(line)].join('\n');
}

/** `text` as a regular expression that matches it literally. */
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

module.exports = {
  escapeRegex,
  wrap,
  wrapLines,
  table,
};
