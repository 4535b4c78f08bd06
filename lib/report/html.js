'use strict';
// report.html: the report's sections (./sections.js) as one self-contained file (inline CSS and
// SVG, no script, no network) that opens offline in any browser; it knows how to write a block.
const { escapeHtml: escape, htmlTable, htmlHeading, htmlPage } = require('./markup');
const { SECTIONS, layOut } = require('./sections');

/** A span as HTML, escaped: text, <strong>, <code>, an aside in the conditions' style, a link. */
function span(s) {
  if (typeof s === 'string') return escape(s);
  if (s.strong !== undefined) return `<strong>${escape(s.strong)}</strong>`;
  if (s.code !== undefined) return `<code>${escape(s.code)}</code>`;
  if (s.aside !== undefined) return `<span class="conditions">${escape(s.aside)}</span>`;
  if (s.link !== undefined) return `<a href="${escape(s.link)}">${escape(s.text)}</a>`;
  return escape(s.text);
}

const inline = (spans) => (Array.isArray(spans) ? spans : [spans]).map(span).join('');

/** A block as HTML ('' for nothing to show). */
function blockHtml(block) {
  if (block.heading !== undefined) return htmlHeading(block.level, block.heading);
  if (block.paragraph !== undefined)
    return `<p${block.muted ? ' class="muted"' : ''}>${inline(block.paragraph)}</p>`;
  if (block.list) {
    if (!block.list.length) return '';
    const items = block.list.map((item) => `<li>${inline(item)}</li>`).join('');
    return `<ul${block.aside ? ' class="conditions"' : ''}>${items}</ul>`;
  }
  if (block.table) return htmlTable(block.table, { limitedRows: block.shade || [], wrap: block.wrap || [] });
  if (block.box) {
    const inside = block.text !== undefined ? inline(block.text) : block.blocks.map(blockHtml).join('');
    return `<div class="${block.box}">${inside}</div>`;
  }
  return block.chart();
}

/** Blocks as the page's parts, one each. */
const htmlBlocks = (blocks) => blocks.map(blockHtml).filter(Boolean);

/**
 * report.html of `results`. `sections`: more HTML from the same directory's runs (the reliability
 * and route-scale sections), where the outline's `others` says; `outline`: the sections to
 * render (SECTIONS, or a test's own).
 */
function renderHtml(results, { sections = [], outline = SECTIONS } = {}) {
  const parts = [];
  for (const section of layOut(results, 'html', outline)) {
    if (section.others) parts.push(...sections);
    if (section.title) parts.push(htmlHeading(2, section.title, { id: section.anchor || undefined }));
    parts.push(...htmlBlocks(section.blocks));
  }
  return `${htmlPage(`Router matrix ${results.id}`, parts)}\n`;
}

module.exports = { renderHtml, htmlBlocks };
