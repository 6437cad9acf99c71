/**
 * A port for a process that listens later (Prism, a sandbox process, a receiver in another
 * language): free now, and below the ephemeral range (Linux hands out 32768 and up, macOS
 * 49152 and up). Every in-process server of the tests listens on port 0 meanwhile, and one of
 * them handed this very port would answer in the child's place while the child exits on
 * EADDRINUSE; a listen on port 0 never hands out a port below that range.
 */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}
