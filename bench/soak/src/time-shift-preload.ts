// Loaded with `--import` into the sandbox and every shop instance: their clocks read real time plus
// an offset the soak moves (SOAK_TIME_OFFSET_MS at start, then `time-offset` messages over IPC).
// The sandbox's clock alone cannot be moved (`/sandbox/clock/advance`): the shop would stay in the
// present while the service lives months ahead, and the kit orders what it knows by time (a return
// page's read is stamped with the shop's clock, an event with the service's), which in production
// share one time. Moving both keeps them together, as libfaketime would; timers, performance.now()
// and PostgreSQL's now() keep real time, as they only measure durations here (the ledger's leases
// are set and compared in the database).
const RealDate = Date;
let offsetMs = Number(process.env.SOAK_TIME_OFFSET_MS ?? 0);
const shiftedNow = () => RealDate.now() + offsetMs;

globalThis.Date = new Proxy(RealDate, {
  construct(target, args: unknown[], newTarget) {
    return Reflect.construct(target, args.length === 0 ? [shiftedNow()] : args, newTarget);
  },
  apply() {
    return new RealDate(shiftedNow()).toString();
  },
  get(target, property, receiver) {
    if (property === 'now') return shiftedNow;
    return Reflect.get(target, property, receiver);
  },
});

process.on('message', (message: { type?: string; ms?: number }) => {
  if (message?.type === 'time-offset' && typeof message.ms === 'number') offsetMs = message.ms;
});
process.channel?.unref();
