import type { ServerResponse } from 'node:http';

/** Resolves once the response can take more (or closed): the back-pressure wait of every writer. */
export function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}
