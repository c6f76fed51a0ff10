export {
  API_PATH_PREFIXES,
  consoleResponse,
  findConsoleDist,
  isApiPath,
  registerConsole,
  type ConsoleResponse,
  type ConsoleOptions,
} from './console-static';
