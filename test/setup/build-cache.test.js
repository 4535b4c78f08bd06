'use strict';
// The C builds' cache (lib/setup/debian-source.js buildEnv): setup unpacks each source into a new
// temporary directory, and a fresh clone must still hit what an earlier clone compiled.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { run } = require('../../lib/setup/debian-source');

const CCACHE = '/usr/lib/ccache';
const ccacheStats = (dir) =>
  Object.fromEntries(
    execFileSync('ccache', ['--print-stats'], { encoding: 'utf8', env: { ...process.env, CCACHE_DIR: dir } })
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
      .map(([key, value]) => [key, Number(value)]),
  );

// A Makefile like HAProxy's: `cc`, with debug info (-g), which would bring the directory into the hash.
const SOURCES = {
  'main.c': 'int main(void) { return 0; }\n',
  Makefile: 'prog: main.o\n\t$(CC) -o prog main.o\nmain.o: main.c\n\t$(CC) -g -O2 -c -o main.o main.c\n',
};

const cacheTest = fs.existsSync(CCACHE) ? test : test.skip;

cacheTest('a build unpacked into another directory hits the cache the first one filled', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rlab-ccache-'));
  const saved = process.env.CCACHE_DIR;
  process.env.CCACHE_DIR = path.join(root, 'cache');
  try {
    for (const build of ['first', 'second']) {
      const dir = path.join(root, build);
      fs.mkdirSync(dir);
      for (const [name, text] of Object.entries(SOURCES)) fs.writeFileSync(path.join(dir, name), text);
      run('make', [], { cwd: dir, log: () => {}, what: `the ${build} build` });
      expect(fs.existsSync(path.join(dir, 'prog'))).toBe(true);
    }
    const stats = ccacheStats(process.env.CCACHE_DIR);
    expect({ miss: stats.cache_miss, hit: stats.direct_cache_hit }).toEqual({ miss: 1, hit: 1 });
  } finally {
    if (saved === undefined) delete process.env.CCACHE_DIR;
    else process.env.CCACHE_DIR = saved;
    fs.rmSync(root, { recursive: true, force: true });
  }
});
