import { createInterface } from 'node:readline';

/** Asks one question on the terminal; with `hidden` the answer is not echoed (passwords). */
export function ask(
  question: string,
  options: { hidden?: boolean; input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {},
): Promise<string> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stderr;
  const rl = createInterface({ input, output, terminal: Boolean((input as { isTTY?: boolean }).isTTY) });
  let muted = false;
  // readline echoes through this method; muting it hides the typed characters but keeps the prompt.
  const echo = rl as unknown as { _writeToOutput(text: string): void };
  echo._writeToOutput = (text: string) => {
    if (!muted) output.write(text);
  };
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      if (options.hidden) output.write('\n');
      rl.close();
      resolve(answer);
    });
    muted = Boolean(options.hidden);
  });
}
