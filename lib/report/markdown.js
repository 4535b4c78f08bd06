'use strict';
// report.md: the report's sections (./sections.js) as Markdown, ready to paste into an issue or a
// slide. It knows how to write a block; what the report says, and in which order, is sections.js.
const { markdownTable } = require('./markup');
const { SECTIONS, layOut } = require('./sections');

/** A span as Markdown: text, **strong**, `code`, an aside as plain text, [a link](file). */
function span(s) {
  if (typeof s === 'string') return s;
  if (s.strong !== undefined) return `**${s.strong}**`;
  if (s.code !== undefined) return `\`${s.code}\``;
  if (s.aside !== undefined) return s.aside;
  if (s.link !== undefined) return `[${s.text}](${s.link})`;
  return s.text;
}

const inline = (spans) => (Array.isArray(spans) ? spans : [spans]).map(span).join('');

/**
 * A block as Markdown chunks, each followed by a blank line. Markdown has no box: a box's text is
 * a quote, and a box of blocks quotes its first (its headline) and sets the rest below it.
 */
function chunks(block) {
  if (block.heading !== undefined) return [`${'#'.repeat(block.level)} ${block.heading}`];
  if (block.paragraph !== undefined) return [inline(block.paragraph)];
  if (block.list) return block.list.length ? [block.list.map((item) => `- ${inline(item)}`).join('\n')] : [];
  if (block.table) return [markdownTable(block.table)];
  if (block.box && block.text !== undefined) return [`> ${inline(block.text)}`];
  if (block.box) {
    const [headline, ...rest] = block.blocks;
    return [...chunks(headline).map((c) => `> ${c}`), ...rest.flatMap(chunks)];
  }
  return []; // a chart: HTML's alone
}

/** Blocks as Markdown lines, a blank line after each. */
const markdownBlocks = (blocks) => blocks.flatMap(chunks).flatMap((chunk) => [chunk, '']);

/**
 * report.md of `results`. `sections`: more lines from the same directory's runs (the reliability
 * and route-scale sections), where the outline's `others` says; `outline`: the sections to
 * render (SECTIONS, or a test's own).
 */
function renderMarkdown(results, { sections = [], outline = SECTIONS } = {}) {
  const out = [];
  for (const section of layOut(results, 'markdown', outline)) {
    if (section.others) out.push(...sections);
    if (section.title) out.push(`## ${section.title}`, '');
    out.push(...markdownBlocks(section.blocks));
  }
  return `${out.join('\n')}\n`;
}

module.exports = { renderMarkdown, markdownBlocks };
