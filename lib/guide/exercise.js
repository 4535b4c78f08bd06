'use strict';
// The lab guide's commands, read from the one place they are written: the guide's Markdown. The
// exercise runner (test/guide/) runs the very text a page shows. Pure: text in, structures out.

/**
 * `sh exercise quick="--a b" needs=cores:4` → { lang, exercise, attrs }. A block `sh exercise`
 * holds commands a student runs, in order; every `sh` block is checked for the npm scripts,
 * options and files it names. Attributes:
 *   ```sh exercise                       each matrix/lab/reliability command run with --quick
 *   ```sh exercise quick="--quick --cells http:1k:keepalive"   ...with these arguments instead
 *   ```sh exercise needs=cores:4         run only where this many cores are allowed; else skipped
 *   ```sh exercise needs=root            never run by the runner (changes the host); checked only
 *   ```sh exercise needs=cluster         an OpenShift cluster: checked offline only
 *   ```sh exercise needs=script:lab:reload   run once that npm script exists
 *   ```sh exercise needs=real-router     root, for the real router's pod network
 *   ```sh exercise needs=tool:haproxy-2.8    run where setup has built that tool (.tools/bin or PATH)
 *   ```sh exercise lab=none              run with no lab up (its command starts its own)
 */
function parseInfo(info) {
  const lang = info.trim().split(/\s+/)[0] || '';
  const attrs = {};
  let exercise = false;
  const text = info.trim().slice(lang.length);
  for (const m of text.matchAll(/([a-z-]+)(?:=(?:"([^"]*)"|(\S+)))?/g)) {
    if (m[2] === undefined && m[3] === undefined) {
      if (m[1] === 'exercise') exercise = true;
      else attrs[m[1]] = true;
    } else attrs[m[1]] = m[2] !== undefined ? m[2] : m[3];
  }
  return { lang, exercise, attrs };
}

/** Every fenced code block of a Markdown text: { lang, exercise, attrs, text, line } (1-based line). */
function fencedBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split('\n');
  let open = null;
  lines.forEach((line, i) => {
    const fence = /^(\s*)(```+|~~~+)(.*)$/.exec(line);
    if (!open) {
      if (fence) open = { indent: fence[1].length, fence: fence[2], info: fence[3], body: [], line: i + 1 };
      return;
    }
    if (
      fence &&
      fence[2].startsWith(open.fence[0]) &&
      fence[2].length >= open.fence.length &&
      !fence[3].trim()
    ) {
      blocks.push({ ...parseInfo(open.info), text: open.body.join('\n'), line: open.line });
      open = null;
      return;
    }
    open.body.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
  });
  if (open) throw new Error(`unclosed code block opened on line ${open.line}`);
  return blocks;
}

/** The blocks a student runs: `sh exercise` blocks. */
const exerciseBlocks = (markdown) => fencedBlocks(markdown).filter((b) => b.lang === 'sh' && b.exercise);

/** A comment-free, trimmed shell line: `# …` after whitespace or at the start goes (not inside quotes). */
function stripComment(line) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/**
 * The commands of a block, one per logical line: comments and blank lines dropped, `\`
 * continuations joined, a multi-line `for …; do` … `done` kept together. A trailing `&` marks a
 * command run in the background ({ text, background }).
 */
function blockCommands(text) {
  const commands = [];
  let pending = '';
  let depth = 0;
  for (const raw of text.split('\n')) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    // Depth is counted on each physical line once: `for …; do` opens, `done` closes.
    depth += (line.match(/(^|[;\s])do(\s|$)/g) || []).length;
    depth -= (line.match(/(^|[;\s])done(\s|;|$)/g) || []).length;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const joined = pending + line;
    if (depth > 0) {
      pending = /(^|\s)(do|then)$/.test(joined) ? `${joined} ` : `${joined}; `;
      continue;
    }
    pending = '';
    const background = /\s&$/.test(joined);
    commands.push({ text: background ? joined.replace(/\s&$/, '') : joined, background });
  }
  if (pending.trim()) throw new Error(`unfinished command at the end of the block: ${pending.trim()}`);
  return commands;
}

/** Shell words of a simple command (quotes removed; no expansion). */
function shellWords(text) {
  const words = [];
  let word = null;
  let quote = null;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word = word ?? '';
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (quote) throw new Error(`unbalanced ${quote} in: ${text}`);
  if (word !== null) words.push(word);
  return words;
}

/** A command line split at each of `operators` (the longer first where one starts another) outside quotes. */
function splitOutsideQuotes(text, operators) {
  const parts = [''];
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const operator = !quote && operators.find((o) => text.startsWith(o, i));
    if (operator) {
      i += operator.length - 1;
      parts.push('');
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    parts[parts.length - 1] += c;
  }
  return parts;
}

/**
 * The simple commands inside a command line (split at `;`, `&&`, `||`, `|`, and the bodies of
 * `for … do … done` and `$(…)`), each { env, argv }: leading NAME=value assignments, then words.
 */
function simpleCommands(text) {
  const inner = [];
  const outer = text.replace(/\$\(([^()]*)\)/g, (_, sub) => {
    inner.push(sub);
    return 'SUBST';
  });
  const parts = splitOutsideQuotes(outer, ['&&', '||', ';', '|'])
    .map((p) => p.trim().replace(/^(do|then|else)\s+/, ''))
    .filter((p) => p && !/^(done|fi)$/.test(p) && !/^for\s/.test(p) && !/^(do|then|else)$/.test(p));
  const result = [];
  for (const part of parts) {
    const words = shellWords(part);
    const env = {};
    while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
      const [name, ...value] = words.shift().split('=');
      env[name] = value.join('=');
    }
    if (words.length || Object.keys(env).length) result.push({ env, argv: words });
  }
  return [...result, ...inner.flatMap(simpleCommands)];
}

/**
 * `for t in 1 2 4; do A $t; B; done` → ['A 1', 'B', 'A 2', 'B', …]: the loop's commands, one by
 * one, so that a runner can treat each (a lab:up among them) on its own. null for anything else;
 * a list made at run time (`$(…)`) is refused.
 */
function expandFor(text) {
  const loop = /^for ([A-Za-z_][A-Za-z0-9_]*) in (.+?); do (.+); done$/.exec(text.trim());
  if (!loop) return null;
  const [, name, list, body] = loop;
  if (/[$`]/.test(list)) throw new Error(`a loop over a list made at run time cannot be unrolled: ${text}`);
  const variable = new RegExp(`\\$(\\{${name}\\}|${name}\\b)`, 'g');
  return shellWords(list).flatMap((value) =>
    splitOutsideQuotes(body, [';'])
      .map((p) => p.trim())
      .filter(Boolean)
      .map((cmd) => cmd.replace(variable, value)),
  );
}

/** `npm run [-s] <script> [-- args]` → { script, args }; anything else → null. */
function npmRun(argv) {
  if (argv[0] !== 'npm' || argv[1] !== 'run') return null;
  // npm's own options (-s: no banner, as inside $(…)) come before the script.
  const at = argv.findIndex((word, i) => i >= 2 && !word.startsWith('-'));
  if (at === -1) return null;
  const rest = argv.slice(at + 1);
  const dashes = rest.indexOf('--');
  return { script: argv[at], args: dashes === -1 ? rest : rest.slice(dashes + 1) };
}

/** The `--flag` names among a command's arguments (`--flag=value` counts as --flag). */
const flagsOf = (args) => args.filter((a) => /^--[a-z]/.test(a)).map((a) => a.split('=')[0]);

/** What the runner appends to shorten a command, by npm script or k6 (a block's `quick` replaces the scripts'). */
// No warm-up or cool-down, 2 s samples: a lesson compares cells, and the suite has ten minutes on
// two cores.
const MATRIX_QUICK = '--quick --warmup 0 --cooldown 0 --duration 2';
const DEFAULT_QUICK = {
  lab: MATRIX_QUICK,
  matrix: MATRIX_QUICK,
  reliability: '--quick',
  'route-scale': '--quick',
  k6: '-e DURATION=3s',
};

/** Scripts whose runs the quick form shortens. */
const SHORTENED_SCRIPTS = ['lab', 'matrix', 'reliability', 'route-scale'];

/**
 * The quick form of one command line, as the runner runs it: `--quick` (or the block's `quick`)
 * after every `npm run lab|matrix|reliability|route-scale` (adding `--` where missing; a later option wins
 * over an earlier one), and `-e DURATION=3s` after every `k6 run … <script>`. Everything else
 * unchanged.
 */
function quickForm(text, attrs = {}) {
  // One simple command at a time, so `a && b` and `cmd &` keep their shape.
  return text.replace(/(^|;|&&|\|\||\bdo\b)(\s*)([^;&|]*)/g, (all, sep, space, cmd) => {
    const script = /\bnpm run ([a-z:-]+)(\s+--(\s|$))?/.exec(cmd);
    const trimmed = cmd.replace(/\s+$/, '');
    const tail = cmd.slice(trimmed.length);
    if (script && SHORTENED_SCRIPTS.includes(script[1])) {
      const quick = attrs.quick || DEFAULT_QUICK[script[1]];
      return `${sep}${space}${trimmed}${script[2] ? '' : ' --'} ${quick}${tail}`;
    }
    if (/\bk6 run\b/.test(cmd)) return `${sep}${space}${trimmed} ${DEFAULT_QUICK.k6}${tail}`;
    return all;
  });
}

/**
 * Where the runner's lab and results are, instead of the page's defaults: `.lab/` is LAB_DIR,
 * `results/` is a temporary directory, and the default router ports are the lab's free ports.
 */
function relocate(text, { labDir, resultsDir, ports = {} }) {
  let out = text
    .replace(/(^|[\s=(/'"])\.lab\//g, (_, before) => `${before === '/' ? '/' : before}${labDir}/`)
    .replace(/(^|[\s='"])results(?=[/\s'";&|)]|$)/g, (_, before) => `${before}${resultsDir}`);
  for (const [from, to] of Object.entries(ports)) {
    out = out.replace(new RegExp(`:${from}(?=[/\\s'"]|$)`, 'g'), `:${to}`);
  }
  return out;
}

/** A block's needs (`needs=cores:4,root`) → [{ kind, value }]. */
function needsOf(attrs) {
  if (!attrs.needs) return [];
  return String(attrs.needs)
    .split(',')
    .map((n) => {
      const [kind, ...value] = n.split(':');
      return { kind, value: value.join(':') || null };
    });
}

module.exports = {
  parseInfo,
  fencedBlocks,
  exerciseBlocks,
  blockCommands,
  shellWords,
  simpleCommands,
  expandFor,
  npmRun,
  flagsOf,
  quickForm,
  relocate,
  needsOf,
  DEFAULT_QUICK,
};
