'use strict';
// The progress line: cell i/N, what is running, elapsed and ETA. Rewritten in place on a
// terminal, one line per step otherwise (CI logs).

function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function createProgress({ total, estimate, stream = process.stderr, now = () => Date.now() }) {
  const started = now();
  const tty = Boolean(stream.isTTY);
  let lastLength = 0;
  let done = 0;
  const eta = () => {
    const elapsed = (now() - started) / 1000;
    return done ? (elapsed / done) * (total - done) : Math.max(0, estimate - elapsed);
  };
  const emit = (text) => {
    if (tty) {
      stream.write(`\r${text.padEnd(lastLength)}`);
      lastLength = text.length;
    } else stream.write(`${text}\n`);
  };
  return {
    update(index, cellName, step) {
      const elapsed = (now() - started) / 1000;
      emit(
        `[cell ${index + 1}/${total}] ${cellName} ${step} · elapsed ${clock(elapsed)} · ETA ${clock(eta())}`,
      );
    },
    cellDone(index, line) {
      done = index + 1;
      if (tty) stream.write(`\r${' '.repeat(lastLength)}\r`);
      lastLength = 0;
      stream.write(`  ✓ ${line}\n`);
    },
    finish() {
      if (tty && lastLength) stream.write('\n');
      lastLength = 0;
    },
  };
}

module.exports = { createProgress, clock };
