/**
 * The server processes' logger (pino): one per process, JSON lines by default (for a log system),
 * readable colored lines in a terminal. `LOG_LEVEL` and `LOG_FORMAT` are read by each process's
 * config module and passed here. Errors go under the `err` key, which pino serialises with
 * type, message and stack.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { build as prettyStream, prettyFactory } from 'pino-pretty';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * What the API and the worker send `npm start` (scripts/start.ts) once they serve, over the IPC
 * channel it opens: readiness must not depend on LOG_LEVEL, which may hide every info line.
 */
export const CHILD_READY = 'ready';

/** Tells `npm start` this process is ready (nothing when it was started otherwise). */
export function tellParentReady(): void {
  process.send?.(CHILD_READY);
}

/** JSON unless the output is a terminal. */
export function defaultLogFormat(isTerminal = Boolean(process.stdout.isTTY)): LogFormat {
  return isTerminal ? 'pretty' : 'json';
}

const PRETTY_OPTIONS = { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true };

export interface LoggerOptions {
  /** The process: 'api', 'worker', 'marketcraft' (npm start), ... */
  name: string;
  level?: LogLevel;
  format?: LogFormat;
  /** Where the lines go (tests, benchmarks); default stdout. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const format = options.format ?? defaultLogFormat();
  const destination =
    options.destination ??
    (format === 'pretty' ? prettyStream({ ...PRETTY_OPTIONS, sync: true, colorize: Boolean(process.stdout.isTTY) }) : pino.destination({ fd: 1, sync: true }));
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

/** Lines written to a file as soon as they are logged, as createLogger writes stdout (benchmarks log into /dev/null). */
export function fileDestination(path: string): DestinationStream {
  return pino.destination({ dest: path, sync: true });
}

/** A logger that writes nothing (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Turns one JSON log line of another process into a readable colored line (npm start in a terminal). */
export function prettyLines(): (line: string) => string {
  return prettyFactory({ ...PRETTY_OPTIONS, colorize: true });
}
