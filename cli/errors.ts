/** A problem the user can fix (bad option, unreadable file, invalid record): one line, no stack trace. */
export class UserError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A wrong command line: exit code 2, as most Unix tools. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A file that was rejected whole: every problem, one a line, and nothing written. */
export class RejectedError extends UserError {
  readonly problems: string[];
  readonly total: number;

  constructor(message: string, problems: string[], total: number) {
    super(message);
    this.problems = problems;
    this.total = total;
  }
}
