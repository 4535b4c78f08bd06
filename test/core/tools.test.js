'use strict';
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { compareVersions, findOnPath, requireTool } = require('../../lib/core/tools');
const { ROOT } = require('../../lib/core/paths');

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

  test('setup --check reports every service tool with its version and path', () => {
    const out = execFileSync(
      process.execPath,
      [path.join(ROOT, 'bin/setup.js'), '--for', 'service', '--check'],
      {
        encoding: 'utf8',
      },
    );
    expect(out).toMatch(/✓ redis-server\s+\d+\.\d+\.\d+\s+\/\S+redis-server/);
    expect(out).toMatch(/✓ npm dependencies \(data-service\)/);
  });

  test('setup refuses an unknown level with a message that names it', () => {
    let error;
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'bin/setup.js'), '--for', 'everything'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      error = err;
    }
    expect(error.status).toBe(2);
    expect(error.stderr).toContain('--for must be one of service, lab, test, got "everything"');
  });
});
