import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressHttp1Classes } from './expressPrototypes';

interface Seen {
  reqProtoIsExpress: boolean;
  resProtoIsExpress: boolean;
  reqKeptItsPrototype: boolean;
  header: string | undefined;
  app: boolean;
  linked: boolean;
}

/** One GET through express on a server made with (or without) the classes; what express's req/res looked like. */
async function serve(withClasses: boolean): Promise<{ seen: Seen; status: number; body: string }> {
  const app = express();
  let before: object | null = null;
  let beforeRes: object | null = null;
  app.use((req, res) => {
    const seen: Seen = {
      reqProtoIsExpress: before === app.request,
      resProtoIsExpress: beforeRes === app.response,
      reqKeptItsPrototype: Object.getPrototypeOf(req) === before,
      header: req.get('x-probe'),
      app: req.app === app,
      linked: req.res === res && res.req === req,
    };
    res.status(201).json(seen);
  });
  const classes = withClasses ? expressHttp1Classes(app) : {};
  const server = http.createServer(classes, (req, res) => {
    before = Object.getPrototypeOf(req) as object;
    beforeRes = Object.getPrototypeOf(res) as object;
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/x`, { headers: { 'x-probe': 'p' } });
    const body = await res.text();
    return { seen: JSON.parse(body) as Seen, status: res.status, body };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test.each<[string, boolean, boolean]>([
  ['made by the classes: already on express prototypes', true, true],
  ['made by Node: express re-parents them', false, false],
])('%s', async (_name, withClasses, onExpressProtos) => {
  const { seen, status } = await serve(withClasses);
  expect(status).toBe(201);
  expect(seen).toEqual({
    reqProtoIsExpress: onExpressProtos,
    resProtoIsExpress: onExpressProtos,
    reqKeptItsPrototype: onExpressProtos,
    header: 'p',
    app: true,
    linked: true,
  });
});

test('the classes are Node\'s request and response, with express\'s members', () => {
  const app = express();
  const { IncomingMessage, ServerResponse } = expressHttp1Classes(app);
  const req = new IncomingMessage(null as never);
  expect(req).toBeInstanceOf(http.IncomingMessage);
  expect(Object.getPrototypeOf(req)).toBe(app.request);
  expect(typeof (req as unknown as express.Request).get).toBe('function');
  expect((req as unknown as express.Request).app).toBe(app);
  const res = new ServerResponse(req);
  expect(res).toBeInstanceOf(http.ServerResponse);
  expect(Object.getPrototypeOf(res)).toBe(app.response);
  expect(typeof (res as unknown as express.Response).status).toBe('function');
});
