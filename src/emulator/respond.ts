// What every emulator response shares: the JSON content type, the API's error body, and a whole body sent at once.
import type * as http from 'node:http';

export type Payload = { status: number; headers: Record<string, string>; body: unknown };

export const JSON_TYPE = 'application/json; charset=utf-8';

export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

export function sendText(res: http.ServerResponse, status: number, headers: Record<string, string>, body: string, type = JSON_TYPE) {
  res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}
