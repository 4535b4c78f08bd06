'use strict';
// The areas' rules `npm run lint` keeps (.dependency-cruiser.js), each shown refusing a deliberate
// breach: an upward require between areas, a cycle, the service reaching outside its folder, and
// inside lib/lab the router backends apart and below the lab's API.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { ROOT } = require('../../lib/core/paths');
const { useTempDir } = require('../lab/helpers');

const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

/** Writes `files` ({ 'lib/core/a.js': source }) under dir and cruises them with the project's rules. */
async function cruise(dir, files) {
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), `'use strict';\n${source}\n`);
  }
  const config = path.join(ROOT, '.dependency-cruiser.js');
  const args = ['--config', config, '--output-type', 'err', ...Object.keys(files)];
  try {
    await promisify(execFile)(DEPCRUISE, args, { cwd: dir });
    return '';
  } catch (err) {
    return err.stdout;
  }
}

describe('areas depend one way (dependency-cruiser)', () => {
  const base = useTempDir('router-lab-lint-');
  const tmp = () => fs.mkdtempSync(path.join(base, 'case-'));

  test('a lower area requiring a higher one is refused, naming the rule and both modules', async () => {
    const out = await cruise(tmp(), {
      'lib/core/low.js': "require('../report/high');",
      'lib/report/high.js': "require('../core/other');",
      'lib/core/other.js': '',
    });
    expect(out).toMatch(/one-way-lib-core: lib\/core\/low\.js → lib\/report\/high\.js/);
    expect(out).not.toMatch(/lib\/report\/high\.js → lib\/core/);
  });

  test('a cycle between modules of one area is refused', async () => {
    const out = await cruise(tmp(), {
      'lib/lab/a.js': "require('./b');",
      'lib/lab/b.js': "require('./a');",
    });
    expect(out).toMatch(/no-cycle: lib\/lab\/a\.js →\s+lib\/lab\/b\.js →\s+lib\/lab\/a\.js/);
  });

  test('the service requiring the lab is refused; areas above lib/load may require the service, those up to it not', async () => {
    const out = await cruise(tmp(), {
      'data-service/src/app.js': "require('../../lib/core/tool');",
      'lib/core/tool.js': '',
      'lib/reliability/redis-kill.js': "require('../../data-service/src/config');",
      'lib/lab/certs.js': "require('../../data-service/src/config');",
      'data-service/src/config.js': '',
    });
    expect(out).toMatch(/service-ships-alone: data-service\/src\/app\.js → lib\/core\/tool\.js/);
    // data-service/bench requires lib/load: the lab requiring the service would close a circle of areas.
    expect(out).toMatch(/service-above-the-load: lib\/lab\/certs\.js → data-service\/src\/config\.js/);
    expect(out).not.toMatch(/lib\/reliability\/redis-kill\.js →/);
  });

  test('a library requiring an entry point is refused', async () => {
    const out = await cruise(tmp(), { 'lib/matrix/run.js': "require('../../bin/lab');", 'bin/lab.js': '' });
    expect(out).toMatch(/lib\/matrix\/run\.js → bin\/lab\.js/);
  });

  test('one router backend requiring the other is refused', async () => {
    const out = await cruise(tmp(), {
      'lib/lab/template-router/backend.js': "require('../openshift-router/processes');",
      'lib/lab/openshift-router/processes.js': "require('../common/stack');",
      'lib/lab/common/stack.js': '',
    });
    expect(out).toMatch(
      /lab-template-router-alone: lib\/lab\/template-router\/backend\.js → lib\/lab\/openshift-router\/processes\.js/,
    );
    expect(out).not.toMatch(/processes\.js → lib\/lab\/common/);
  });

  test("the lab's plumbing reads a backend's kind.js, and nothing else of it", async () => {
    const out = await cruise(tmp(), {
      'lib/lab/common/router-kinds.js':
        "require('../template-router/kind'); require('../template-router/reload');",
      'lib/lab/template-router/kind.js': '',
      'lib/lab/template-router/reload.js': '',
    });
    expect(out).toMatch(
      /lab-plumbing-below-backends: lib\/lab\/common\/router-kinds\.js → lib\/lab\/template-router\/reload\.js/,
    );
    expect(out).not.toMatch(/→ lib\/lab\/template-router\/kind\.js/);
  });

  test('a backend or a fault reaching past the registry is refused', async () => {
    const out = await cruise(tmp(), {
      'lib/lab/openshift-router/backend.js': "require('../routers');",
      'lib/lab/routers.js': '',
      'lib/lab/faults/kill.js': "require('../template-router/reload');",
      'lib/lab/template-router/reload.js': '',
    });
    expect(out).toMatch(
      /lab-backends-below-api: lib\/lab\/openshift-router\/backend\.js → lib\/lab\/routers\.js/,
    );
    expect(out).toMatch(
      /lab-faults-through-api: lib\/lab\/faults\/kill\.js → lib\/lab\/template-router\/reload\.js/,
    );
  });
});
