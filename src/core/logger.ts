// The logging seam: the extension passes its LogOutputChannel, the CLI stderr (when --verbose), tests a recorder.
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const nullLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
