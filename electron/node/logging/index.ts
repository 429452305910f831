export { createFileLogger, type FileLoggerOptions, type Logger } from './logger.ts';
export { maskCard, redact } from './redact.ts';
