/** A logger (the processes' own, db/src/logger.ts) that keeps its JSON lines, parsed, for a test to read. */
import { createLogger, type LogLevel } from '../logger.ts';

export function memoryLogger(name: string, level: LogLevel = 'debug') {
  const lines: Record<string, any>[] = [];
  const logger = createLogger({ name, level, destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}
