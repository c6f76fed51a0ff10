import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Nest's start-up chatter (one line per route and module) that operators do not need at the `log` level. */
const QUIET_CONTEXTS = new Set([
  'RouterExplorer',
  'RoutesResolver',
  'InstanceLoader',
  'NestFactory',
  'NestApplication',
]);

/** Console logger that keeps Quarry's own `log` lines and Nest's warnings, minus the start-up chatter. */
export class QuarryLogger extends ConsoleLogger {
  constructor(levels: LogLevel[]) {
    super('quarry', { logLevels: levels });
  }

  override log(message: unknown, context?: string): void {
    if (context && QUIET_CONTEXTS.has(context) && !this.isLevelEnabled('debug')) return;
    super.log(message, context);
  }
}
