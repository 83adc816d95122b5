import type pg from 'pg';

/** What `pg-pool` says when no connection came in time; the server answers 503 for it. */
const NO_CONNECTION = 'timeout exceeded when trying to connect';

/**
 * How long a request waits for a connection. Under load every connection may be busy for a while
 * (a burst of uploads queues for seconds on two cores, and opening a connection then takes seconds
 * too), and that wait must not turn into 503s; a database that does not answer must, within
 * `timeoutMs`. `pg-pool` has one setting for both, so the wait is decided here: after `timeoutMs` a
 * request gives up if the database answered nothing at all meanwhile (no statement, no new
 * connection), or a statement already got no answer in time (it is suspect); otherwise it waits up
 * to `loadWaitMs`. Turning suspect also fails every request already waiting; the next answer from
 * the database ends it. Our own mechanism, because neither `pg` nor `pg-pool` tells "busy" from "not
 * answering".
 */
export function hangAwareConnect(pool: pg.Pool, timeoutMs: number, loadWaitMs: number) {
  let suspect = false;
  let lastAnswer = Date.now();
  const waiting = new Set<(error: Error) => void>();
  const noAnswer = () => {
    if (suspect) return;
    suspect = true;
    for (const fail of [...waiting]) fail(new Error(NO_CONNECTION));
  };
  const answered = () => {
    suspect = false;
    lastAnswer = Date.now();
  };
  // A new connection is an answer; a pooled one handed out is not (it may lead to a stopped backend).
  pool.on('connect', answered);
  return {
    /** A statement got no answer in time. */
    noAnswer,
    /** The database answered a statement. */
    answered,
    connect(): Promise<pg.PoolClient> {
      return new Promise((resolve, reject) => {
        let done = false;
        const finish = () => {
          done = true;
          clearTimeout(timer);
          waiting.delete(fail);
        };
        const fail = (error: Error) => {
          if (done) return;
          finish();
          reject(error);
        };
        let timer = setTimeout(() => {
          if (suspect || Date.now() - lastAnswer >= timeoutMs) {
            noAnswer();
            fail(new Error(NO_CONNECTION));
          } else {
            timer = setTimeout(() => fail(new Error(NO_CONNECTION)), loadWaitMs - timeoutMs);
          }
        }, timeoutMs);
        waiting.add(fail);
        pool.connect().then((client) => {
          // Came after the request gave up: back to the pool for the next one.
          if (done) return client.release();
          finish();
          resolve(client);
        }, fail);
      });
    },
  };
}
