'use strict';
// Documents written through a temporary file and a rename, so a reader (or an interrupted write)
// never sees half a file: results.json, reliability.json and the lab's state.
const fs = require('node:fs');

/** Writes `value` as indented JSON to `file`: first to `file`.tmp, then renamed over it. */
function writeJsonAtomic(file, value) {
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

module.exports = { writeJsonAtomic };
