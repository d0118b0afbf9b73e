/** 1 MiB: webhook events are small JSON; anything larger is not from the service. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Long enough for any honest webhook or form; a body still dripping in after it is refused (408). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
