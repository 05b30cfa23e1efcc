/**
 * Progress of one phase, by bytes of the file: a redrawn bar on a terminal,
 * otherwise a plain line every 10% and one at the end, for files worth
 * watching (4 MB and more); small files just get the summary.
 */
export interface Progress {
  start(phase: string, totalBytes: number): void;
  update(bytes: number, records: number): void;
  done(message: string): void;
}

export const silentProgress: Progress = {
  start() {
    // Silent: no bar is drawn.
  },
  update() {
    // Silent: nothing is redrawn.
  },
  done() {
    // Silent: the summary is not printed.
  },
};

const PLAIN_MIN_BYTES = 4 * 1024 * 1024;

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let phase = "";
  let total = 1;
  let started = 0;
  let lastDraw = 0;
  let lastStep = 0;
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  return {
    start(name, totalBytes) {
      phase = name;
      total = Math.max(totalBytes, 1);
      started = performance.now();
      lastDraw = 0;
      lastStep = 0;
    },
    update(bytes, records) {
      const ratio = Math.min(bytes / total, 1);
      if (tty) {
        const now = performance.now();
        if (now - lastDraw < 100) return;
        lastDraw = now;
        const width = 24;
        const filled = Math.round(ratio * width);
        const bar = "█".repeat(filled) + "░".repeat(width - filled);
        stream.write(
          `\r\x1b[2K${phase} ${bar} ${Math.floor(ratio * 100)}% ${records.toLocaleString("en")} records ${seconds()}s`,
        );
      } else if (total >= PLAIN_MIN_BYTES) {
        const step = Math.floor(ratio * 10);
        if (step > lastStep && step < 10) {
          lastStep = step;
          stream.write(`${phase}: ${step * 10}% (${records.toLocaleString("en")} records, ${seconds()}s)\n`);
        }
      }
    },
    done(message) {
      if (tty) stream.write(`\r\x1b[2K${message} (${seconds()}s)\n`);
      else if (total >= PLAIN_MIN_BYTES) stream.write(`${message} (${seconds()}s)\n`);
    },
  };
}
