#ifndef CCALLGRIND_H
#define CCALLGRIND_H

/// Valgrind's client requests that `run --instructions` needs, written out for x86-64 (the
/// request protocol of valgrind.h: a marker sequence of rotates that a native CPU executes as a
/// no-op, then `xchg %rbx,%rbx`). Outside valgrind, or on another architecture, each is a no-op
/// and `cachebench_running_on_valgrind` returns 0.

/// How many valgrinds the process runs under: 0 natively.
unsigned long cachebench_running_on_valgrind(void);
/// Callgrind: sets every cost counter to zero.
void cachebench_callgrind_zero_stats(void);
/// Callgrind: switches collection on if off, off if on.
void cachebench_callgrind_toggle_collect(void);
/// Callgrind: writes the counters to the next dump file (`<out-file>.<n>`), then zeroes them.
void cachebench_callgrind_dump_stats(void);

#endif
