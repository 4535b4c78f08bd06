'use strict';
// The cell axes declared once (k6/lib/axes.js): today's plans, names, k6 variables and messages
// are those of before (test/fixtures/cell-plans.json), the schema agrees with the declaration,
// and one more axis, declared here only, flows through the plan, names and parsing.
const SCHEMA = require('../../lib/results-model/schema.json');
const BEFORE = require('../fixtures/cell-plans.json');
const axes = require('../../k6/lib/axes');
const cells = require('../../k6/lib/cells');
const { cellVocabulary } = require('../../k6/lib/cell-names');
const { parseMatrixArgs } = require('../../lib/matrix/options');
const { planCells, allCells, cellMatcher } = require('../../lib/matrix/plan');
const { k6Args } = require('../../lib/load/k6');

const outcome = (f) => {
  try {
    return f();
  } catch (err) {
    return `${err.constructor.name}: ${err.message}`;
  }
};

describe('today’s axes give what they gave before they were declared once', () => {
  test.each(BEFORE.plans)('planCells for %j', (argv, expected) => {
    const plan = outcome(() =>
      planCells(parseMatrixArgs(argv))
        .map((c) => c.name)
        .join(' '),
    );
    expect(plan).toBe(expected);
  });

  test('the planned cells’ values, tags and k6 variables', () => {
    const planned = planCells(parseMatrixArgs(['--sizes', '1000,1m']));
    expect(planned.map((c) => Object.values(c))).toEqual(BEFORE.cellsOfSizes1000And1m);
    expect(
      planned.every((c) => Object.keys(c).join() === 'name,termination,pageSize,connection,tlsSession'),
    ).toBe(true);
    const wider = planCells(parseMatrixArgs(['--sizes', '1k,1000,1m']));
    expect(wider.map((c) => Object.values(cells.cellTags(c)).join(' '))).toEqual(BEFORE.tags);
    const args = wider.map((c) => k6Args(c, { vus: 32 }, { mode: 'lab' }, { durationSeconds: 3 }));
    const axisVariables = (list) =>
      list.filter(
        (a, i) => list[i - 1] === '-e' && /^(TERMINATION|PAGE_SIZE|CONNECTION|TLS_SESSION)=/.test(a),
      );
    expect(args.map((list) => axisVariables(list).join(' '))).toEqual(BEFORE.k6Variables);
  });

  test.each(BEFORE.names)('parseCellName(%j)', (name, expected) => {
    expect(outcome(() => cells.parseCellName(name))).toEqual(expected);
  });

  test('names round-trip: parse(format(cell)) is the cell, format(parse(name)) the name', () => {
    for (const cell of allCells({ sizes: ['1', '1000', '1k', '4k', '1m'] })) {
      expect(cells.parseCellName(cell.name)).toEqual(cell);
      expect(cells.cellName(cells.parseCellName(cell.name))).toBe(cell.name);
      expect(cells.cellOf(cell)).toEqual(cell);
      expect(cells.readCellVariables(cells.cellVariables(cell))).toEqual(cell);
    }
  });

  test('k6’s variables: each unset takes its axis’s default; a bad one is named', () => {
    expect(cells.readCellVariables({}).name).toBe('http:1k:keepalive');
    expect(cells.readCellVariables({ TERMINATION: 'edge', CONNECTION: 'close' }).name).toBe(
      'edge:1k:close:full',
    );
    expect(cells.readCellVariables({ TLS_SESSION: 'bogus' }).tlsSession).toBeNull();
    expect(() => cells.readCellVariables({ TERMINATION: 'tls' })).toThrow(
      'TERMINATION must be one of http, edge, passthrough, reencrypt, got "tls"',
    );
    expect(() => cells.readCellVariables({ PAGE_SIZE: 'huge' })).toThrow(/page size must look like/);
    expect(() =>
      cells.readCellVariables({ TERMINATION: 'edge', CONNECTION: 'close', TLS_SESSION: 'x' }),
    ).toThrow('TLS_SESSION must be one of full, resumed, got "x"');
  });
});

describe('results.json’s schema agrees with the declaration', () => {
  const cell = SCHEMA.$defs.cell.properties;

  test('the cell name pattern is the one the axes give', () => {
    expect(cell.name.pattern).toBe(cells.CELLS.namePattern());
  });

  test('each closed axis’s enum, with null where not every cell has it, and its option’s', () => {
    for (const axis of axes.AXES.filter((a) => a.values)) {
      expect(cell[axis.key].enum).toEqual(axis.appliesTo ? [...axis.values, null] : axis.values);
      if (axis.option) expect(SCHEMA.$defs.options.properties[axis.option].items.enum).toEqual(axis.values);
    }
    expect(SCHEMA.$defs.cell.required).toEqual(expect.arrayContaining(axes.AXES.map((a) => a.key)));
  });
});

describe('one more axis, declared in this test only, flows through', () => {
  // Issue 33's shape: HTTP/2 next to today's HTTP/1.1 for the routes the router terminates, its
  // part only off its default so that every name of today stays as it is.
  const PROTOCOL = {
    key: 'protocol',
    part: 'protocol',
    values: ['h1', 'h2'],
    default: 'h1',
    choices: ['h1'], // what a run plans unless its option (--protocols, say) chooses
    option: 'protocols',
    appliesTo: (c) => c.termination === 'edge' || c.termination === 'reencrypt',
    inName: 'unlessDefault',
    notApplicable: 'only edge and re-encrypt cells have a protocol part',
    variable: 'HTTP_PROTOCOL',
    tag: 'protocol',
  };
  const wider = cellVocabulary([...axes.AXES, PROTOCOL], { patternExamples: ['edge:1k:keepalive:h2'] });
  const names = (opts) => planCells({ sizes: ['1k'], ...opts }, wider).map((c) => c.name);

  test('the plan: h2 cells beside today’s, whose names do not change', () => {
    const plan = names({ protocols: ['h1', 'h2'] });
    expect(plan.filter((n) => n.endsWith(':h2'))).toEqual([
      'edge:1k:keepalive:h2',
      'edge:1k:close:full:h2',
      'edge:1k:close:resumed:h2',
      'reencrypt:1k:keepalive:h2',
      'reencrypt:1k:close:full:h2',
      'reencrypt:1k:close:resumed:h2',
    ]);
    expect(plan.filter((n) => !n.endsWith(':h2'))).toEqual(planCells({ sizes: ['1k'] }).map((c) => c.name));
    expect(names({ protocols: ['h2'] })).toContain('edge:1k:keepalive:h2');
    expect(names({ protocols: ['h2'] })).not.toContain('edge:1k:keepalive');
    expect(names({})).not.toContain('edge:1k:keepalive:h2');
  });

  test('--cells patterns name it by its values, after the session part if any', () => {
    const opts = { protocols: ['h1'] };
    expect(names({ ...opts, cells: ['edge:1k:keepalive:h2'] })).toEqual(['edge:1k:keepalive:h2']);
    expect(names({ ...opts, cells: ['edge:1k:close:resumed:h2'] })).toEqual(['edge:1k:close:resumed:h2']);
    expect(names({ ...opts, cells: ['edge:1k:close:*:*'] })).toEqual([
      'edge:1k:close:full',
      'edge:1k:close:full:h2',
      'edge:1k:close:resumed',
      'edge:1k:close:resumed:h2',
    ]);
    expect(names({ ...opts, cells: ['*:1k:keepalive'] })).toEqual([
      'http:1k:keepalive',
      'edge:1k:keepalive',
      'passthrough:1k:keepalive',
      'reencrypt:1k:keepalive',
    ]);
    expect(() => cellMatcher('edge:1k:close:h3', {}, wider)).toThrow(
      "--cells: 'edge:1k:close:h3': session must be * or one of full, resumed; or protocol must be * or one of h1, h2",
    );
    expect(() => cellMatcher('edge:1k', {}, wider)).toThrow(
      "--cells: 'edge:1k' must be termination:size:connection[:session][:protocol], e.g. edge:1k:keepalive:h2",
    );
  });

  test('names, tags, k6 variables and the schema’s pattern take it', () => {
    const cell = wider.parseCellName('reencrypt:4k:close:full:h2');
    expect(cell).toEqual({
      name: 'reencrypt:4k:close:full:h2',
      termination: 'reencrypt',
      pageSize: 4096,
      connection: 'close',
      tlsSession: 'full',
      protocol: 'h2',
    });
    expect(wider.parseCellName('edge:1k:keepalive').protocol).toBe('h1');
    expect(wider.parseCellName('http:1k:keepalive').protocol).toBeNull();
    expect(() => wider.parseCellName('http:1k:keepalive:h2')).toThrow(
      "cell 'http:1k:keepalive:h2': only edge and re-encrypt cells have a protocol part",
    );
    expect(wider.cellTags(cell).protocol).toBe('h2');
    expect(wider.cellVariables(cell).HTTP_PROTOCOL).toBe('h2');
    expect(wider.readCellVariables({ TERMINATION: 'edge' }).name).toBe('edge:1k:keepalive');
    expect(wider.readCellVariables({ TERMINATION: 'edge', HTTP_PROTOCOL: 'h2' }).name).toBe(
      'edge:1k:keepalive:h2',
    );
    // An older record, from before the axis: the default where the cell has it.
    expect(wider.cellOf({ termination: 'edge', pageSize: 1024, connection: 'keepalive' }).protocol).toBe(
      'h1',
    );
    const pattern = new RegExp(wider.namePattern());
    expect('edge:1k:close:full:h2').toMatch(pattern);
    expect('edge:1k:keepalive:h2').toMatch(pattern);
    expect('edge:1k:keepalive:h1').not.toMatch(pattern);
  });
});
