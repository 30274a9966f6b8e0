// Errors of parsing and evaluating a JSONPath template; the messages are client-go's.

export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

/** The template or its evaluation went past this server's bounds (not an upstream error). */
export class JsonPathLimitError extends JsonPathError {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathLimitError';
  }
}
