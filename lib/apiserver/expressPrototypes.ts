// HTTP/1.1 request and response classes whose prototypes are express's own. Express re-parents
// every req and res onto app.request / app.response (Object.setPrototypeOf: ~0.6 µs each, and the
// objects move to new hidden classes). Made by these classes they are there already, so that
// re-parenting finds the same prototype and does nothing.
import http from 'node:http';
import type { Express } from 'express';

/** The classes for the server's options (http: IncomingMessage/ServerResponse; http2: Http1…). */
export interface Http1Classes {
  IncomingMessage: typeof http.IncomingMessage;
  ServerResponse: typeof http.ServerResponse;
}

/** Makes app.request / app.response the prototypes of the returned classes' instances. */
export function expressHttp1Classes(app: Express): Http1Classes {
  class ExpressRequest extends http.IncomingMessage {}
  class ExpressResponse extends http.ServerResponse {}
  app.request = adopt(ExpressRequest.prototype, app.request);
  app.response = adopt(ExpressResponse.prototype, app.response);
  // The subclass only narrows ServerResponse's generic request type, which TS cannot see.
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse as typeof http.ServerResponse };
}

/**
 * Gives proto what expressProto is (its own members, its parent: express's request or response
 * methods over Node's) and returns proto to stand in for it.
 */
function adopt<T extends object>(proto: object, expressProto: T): T {
  Object.setPrototypeOf(proto, Object.getPrototypeOf(expressProto) as object | null);
  for (const key of Reflect.ownKeys(expressProto)) {
    const d = Object.getOwnPropertyDescriptor(expressProto, key);
    if (d) Object.defineProperty(proto, key, d);
  }
  return proto as T;
}
