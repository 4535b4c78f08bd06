'use strict';
// Finding tools and comparing their versions (lib/core/tools.js).
const { compareVersions, findOnPath, requireTool } = require('../../lib/core/tools');

describe('tools', () => {
  test('versions compare numerically, not as text', () => {
    expect(compareVersions('2.10.0', '2.6.0')).toBeGreaterThan(0);
    expect(compareVersions('2.6', '2.6.0')).toBe(0);
    expect(compareVersions('1.8.1', '1.10.0')).toBeLessThan(0);
  });

  test('a missing tool is named together with the way to get it', () => {
    expect(findOnPath('router-lab-no-such-tool')).toBeNull();
    expect(() => requireTool('router-lab-no-such-tool')).toThrow(
      "router-lab-no-such-tool was not found in .tools/bin or on PATH: run 'npm run setup' first",
    );
  });
});
