// Red Hat's published router figures (DESIGN.md), as data. The Node runner requires the same
// reference.json, so k6 scripts and the report never disagree about them.
export const REFERENCE = JSON.parse(open('./reference.json'));
