/**
 * The longest the calling thread's event loop was busy (running code, not waiting) between two ticks
 * of a 10 ms timer while `work` ran, in ms; a thread merely kept waiting by a loaded machine is not busy.
 */
export declare function longestBusySpell(work: () => Promise<unknown>): Promise<number>;
