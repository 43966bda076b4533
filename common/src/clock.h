/* The core's one clock (private to librdmakit). */
#ifndef RDMAKIT_SRC_CLOCK_H
#define RDMAKIT_SRC_CLOCK_H

/** Seconds on the monotonic clock. */
double rk_monotonic_seconds(void);

#endif
