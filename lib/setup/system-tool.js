'use strict';
// A tool that the system's package manager provides: found on PATH (or in .tools/bin) at a
// minimum version, installed through apt, dnf or brew when missing.
const { findTool, findOnPath, toolVersion, compareVersions } = require('../core/tools');
const { installSystemPackages } = require('./system-packages');

/**
 * A tool found on PATH (or in .tools/bin) at a minimum version, installed through the system's
 * package manager when missing.
 */
function systemTool({
  name,
  bins = [name],
  versionArgs,
  versionPattern,
  min,
  packages,
  neededFor,
  optional,
  onPathOnly = false,
}) {
  return {
    name,
    neededFor,
    optional,
    locate() {
      const paths = bins.map((b) => (onPathOnly ? findOnPath(b) : findTool(b)));
      if (paths.some((p) => !p)) return null;
      const line = toolVersion(paths[0], versionArgs) || '';
      const version = (line.match(versionPattern) || [])[1];
      if (!version) return { path: paths[0], version: 'unknown version', tooOld: false };
      return { path: paths[0], version, tooOld: min ? compareVersions(version, min) < 0 : false, min };
    },
    install(log) {
      installSystemPackages(name, packages, log);
    },
  };
}

module.exports = { systemTool };
