'use strict';
// Prometheus's text format, read for a few series: the routers' own /metrics (openshift-router's
// reloads, istiod's pushes) read before and after a measurement.

/**
 * The values of the series named `names` in `text`, each summed over its label sets (an unlabelled
 * series is its one value): { name: value } for the names found (pure).
 */
function sumSeries(text, names) {
  const found = {};
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{[^}]*\})? ([-+\d.eE]+|NaN)$/.exec(line.trim());
    if (match && names.includes(match[1])) found[match[1]] = (found[match[1]] ?? 0) + Number(match[2]);
  }
  return found;
}

/**
 * The series `name` in `text` summed by the value of its label `label`: { value: sum } (pure). A
 * line without the label is left out.
 */
function sumByLabel(text, name, label) {
  const found = {};
  const labelled = new RegExp(`(?:^|,)${label}="([^"]*)"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)\{([^}]*)\} ([-+\d.eE]+|NaN)$/.exec(line.trim());
    const value = match && match[1] === name && labelled.exec(match[2]);
    if (value) found[value[1]] = (found[value[1]] ?? 0) + Number(match[3]);
  }
  return found;
}

module.exports = { sumSeries, sumByLabel };
