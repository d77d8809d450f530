// Making a connection is bounded whatever --request-timeout says, as client-go's transport bounds it
// (k8s.io/apimachinery's SetTransportDefaults): the TCP dial gives up after 30 s and the TLS
// handshake after 10 s. Without them a server that accepts and never answers the handshake holds a
// request with --request-timeout=0 forever (a fleet's silent context, say). A kept-alive
// connection, made already, is not timed again.
import type http from "node:http";
import type { Socket } from "node:net";

export const CONNECT_LIMITS = { dialMs: 30_000, handshakeMs: 10_000 };

/**
 * Ends `req` with PTAH_DIAL_TIMEOUT or PTAH_TLS_HANDSHAKE_TIMEOUT when its new connection is not made in time.
 * Every listener it adds is gone once the connection is made (or closed): a kept-alive socket outlives the
 * request, and a listener left on it would hold the request, its response and what that response was read
 * into (a LIST page's items) for as long as the socket lives.
 */
export function boundConnect(req: http.ClientRequest, tlsExpected: boolean, limits: typeof CONNECT_LIMITS = CONNECT_LIMITS): void {
  req.once("socket", (socket: Socket) => {
    if (!socket.connecting) return;
    const fail = (code: string) => () => req.destroy(Object.assign(new Error(code), { code }));
    let timer = setTimeout(fail("PTAH_DIAL_TIMEOUT"), limits.dialMs);
    const done = (): void => {
      clearTimeout(timer);
      socket.off("connect", connected);
      socket.off("secureConnect", done);
      socket.off("close", done);
    };
    const connected = (): void => {
      if (!tlsExpected) return done();
      clearTimeout(timer);
      timer = setTimeout(fail("PTAH_TLS_HANDSHAKE_TIMEOUT"), limits.handshakeMs);
    };
    socket.once("connect", connected);
    socket.once("secureConnect", done);
    socket.once("close", done);
  });
}
