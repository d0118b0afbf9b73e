/** What a route answers; the server writes it. Keeping handlers pure of `res` makes them easy to read. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(value),
  };
}

/** The spec's success envelope. */
export function successReply(status: number, data: unknown, headers: Record<string, string> = {}): Reply {
  return jsonReply(status, { success: true, data }, headers);
}

export function redirectReply(location: string, status = 303): Reply {
  return { status, headers: { location, 'cache-control': 'no-store' } };
}
