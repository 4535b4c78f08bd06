'use strict';
// Command-line options of `npm run matrix` (and, passed through, `npm run lab`).
const {
  TERMINATIONS,
  CONNECTIONS,
  DEFAULT_SIZES,
  DEFAULT_NAMESPACE,
  parseSize,
  sizeLabel,
} = require('../../k6/lib/cells');

const USAGE = `Usage: npm run matrix -- [options]

Runs the router matrix: termination {${TERMINATIONS.join(', ')}} × page size × connection
{${CONNECTIONS.join(', ')}}, each cell its own k6 process (warm-up, samples, cool-down), against
the local lab (npm run lab:up) or a cluster, then writes results/<run id>/ with results.json,
report.md, report.html and the raw k6 summaries.

Options:
  --quick               short cells for CI: 1 sample of 3s, 1s warm-up (16 cells in ~2 min)
  --cells LIST          a subset: comma list of termination:size:connection, '*' allowed in any
                        part, e.g. edge:1k:keepalive,http:*:close
  --sizes LIST          page sizes (default ${DEFAULT_SIZES.join(',')}), e.g. 1k,4k,16k,64k
  --duration SECONDS    length of one sample (default 10, --quick 3)
  --samples N           samples per cell (default 3, --quick 1); percentiles are computed from
                        the merged distribution of all samples, never averaged
  --warmup SECONDS      unrecorded run before each cell (default 3, --quick 1; 0 = none)
  --cooldown SECONDS    pause after each cell (default 2, --quick 0.5)
  --vus N               closed model: N virtual users, each with its own connection(s)
                        (default 32)
  --rate N              open model instead: N requests/s (constant-arrival-rate), --vus VUs
                        preallocated; the cell then reports dropped iterations and VU exhaustion
                        (--cross-check is skipped: k6 is held to the rate, wrk is not)
  --max-vus N           VU ceiling for --rate (default max(vus, rate/10))
  --target lab|cluster  lab (default): reads <LAB_DIR>/lab.json; cluster: needs --apps-domain
                        (and --namespace) or URL_HTTP/URL_EDGE/URL_PASSTHROUGH/URL_REENCRYPT
  --apps-domain D       cluster apps domain, e.g. apps.example.com
  --namespace NS        cluster namespace (default ${DEFAULT_NAMESPACE})
  --ca-file FILE        CA bundle to trust for edge/re-encrypt (lab: the lab CA; cluster:
                        SSL_CERT_FILE or the system store)
  --insecure            cluster only: skip TLS verification on every route (a router with a
                        self-signed certificate); recorded in results.json. The lab always
                        verifies edge and re-encrypt against the lab CA
  --cross-check         also run wrk on each keep-alive cell and show both tools side by side;
                        a gap over 10 % is flagged
  --dashboard           also export k6's web dashboard HTML for each sample
  --out DIR             results directory (default results/<run id>)
  --no-report           write results.json and the raw summaries only
  -h, --help            this text

Environment: LAB_DIR (the lab's state directory, default .lab/).`;

const DEFAULTS = { duration: 10, samples: 3, warmup: 3, cooldown: 2 };
const QUICK = { duration: 3, samples: 1, warmup: 1, cooldown: 0.5 };

class UsageError extends Error {}

function number(flag, value, { min = 0, integer = false } = {}) {
  const n = Number(value);
  if (
    value === undefined ||
    value === '' ||
    !Number.isFinite(n) ||
    n < min ||
    (integer && !Number.isInteger(n))
  ) {
    throw new UsageError(`${flag} needs ${integer ? 'a whole number' : 'a number'} ≥ ${min}, not '${value}'`);
  }
  return n;
}

/** Parses argv into options; throws UsageError with a message that names the bad option. */
function parseMatrixArgs(argv) {
  const raw = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '-h':
      case '--help':
        raw.help = true;
        break;
      case '--quick':
      case '--cross-check':
      case '--dashboard':
      case '--no-report':
      case '--insecure':
        raw[flag.slice(2)] = true;
        break;
      case '--cells':
      case '--sizes':
      case '--duration':
      case '--samples':
      case '--warmup':
      case '--cooldown':
      case '--vus':
      case '--rate':
      case '--max-vus':
      case '--target':
      case '--apps-domain':
      case '--namespace':
      case '--ca-file':
      case '--out':
        raw[flag.slice(2)] = value();
        break;
      default:
        throw new UsageError(`unknown option '${arg}' (see --help)`);
    }
  }
  if (raw.help) return { help: true };
  const base = raw.quick ? QUICK : DEFAULTS;
  const sizes = (raw.sizes || DEFAULT_SIZES.join(','))
    .split(',')
    .filter(Boolean)
    .map((s) => sizeLabel(parseSizeOption(s)));
  const target = raw.target || 'lab';
  if (!['lab', 'cluster'].includes(target))
    throw new UsageError(`--target must be lab or cluster, not '${target}'`);
  if (raw.insecure && target !== 'cluster') {
    throw new UsageError(
      '--insecure is for --target cluster only: the lab verifies edge and re-encrypt against its own CA',
    );
  }
  const opts = {
    quick: Boolean(raw.quick),
    sizes: [...new Set(sizes)],
    cells: raw.cells ? raw.cells.split(',').filter(Boolean) : null,
    duration:
      raw.duration !== undefined
        ? number('--duration', raw.duration, { min: 1, integer: true })
        : base.duration,
    samples:
      raw.samples !== undefined ? number('--samples', raw.samples, { min: 1, integer: true }) : base.samples,
    warmup:
      raw.warmup !== undefined ? number('--warmup', raw.warmup, { min: 0, integer: true }) : base.warmup,
    cooldown: raw.cooldown !== undefined ? number('--cooldown', raw.cooldown, { min: 0 }) : base.cooldown,
    vus: raw.vus !== undefined ? number('--vus', raw.vus, { min: 1, integer: true }) : 32,
    rate: raw.rate !== undefined ? number('--rate', raw.rate, { min: 1, integer: true }) : null,
    maxVus:
      raw['max-vus'] !== undefined ? number('--max-vus', raw['max-vus'], { min: 1, integer: true }) : null,
    target,
    appsDomain: raw['apps-domain'] || null,
    namespace: raw.namespace || DEFAULT_NAMESPACE,
    caFile: raw['ca-file'] || null,
    insecure: Boolean(raw.insecure),
    crossCheck: Boolean(raw['cross-check']),
    dashboard: Boolean(raw.dashboard),
    out: raw.out || null,
    report: !raw['no-report'],
  };
  return opts;
}

function parseSizeOption(token) {
  try {
    return parseSize(token);
  } catch (err) {
    throw new UsageError(`--sizes: ${err.message}`);
  }
}

module.exports = { USAGE, DEFAULTS, QUICK, UsageError, parseMatrixArgs };
