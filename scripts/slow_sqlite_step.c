// A known slowdown of SQLite for checking `cachebench ab --paired` on a real machine: wraps
// sqlite3_step and, after each call, spins for SLOW_SQLITE_STEP (a fraction, such as 0.05) times
// the time the call took. Set SLOW_SQLITE_STEP=0 on the other side so that both pay the clock
// reads alike.
//
//   cc -O2 -shared -fPIC -o /tmp/slow_sqlite_step.so scripts/slow_sqlite_step.c -ldl
//   LD_PRELOAD=/tmp/slow_sqlite_step.so SLOW_SQLITE_STEP=0.05 .build/release/cachebench worker ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct sqlite3_stmt sqlite3_stmt;

static int (*real_step)(sqlite3_stmt *);
static double fraction;

static unsigned long long now(void) {
  struct timespec spec;
  clock_gettime(CLOCK_MONOTONIC_RAW, &spec);
  return (unsigned long long)spec.tv_sec * 1000000000ull + (unsigned long long)spec.tv_nsec;
}

__attribute__((constructor)) static void load(void) {
  real_step = (int (*)(sqlite3_stmt *))dlsym(RTLD_NEXT, "sqlite3_step");
  const char *text = getenv("SLOW_SQLITE_STEP");
  fraction = text ? atof(text) : 0;
}

int sqlite3_step(sqlite3_stmt *statement) {
  if (!real_step) {
    fprintf(stderr, "slow_sqlite_step: no sqlite3_step to wrap\n");
    abort();
  }
  unsigned long long start = now();
  int result = real_step(statement);
  unsigned long long end = now();
  if (fraction > 0) {
    unsigned long long until = end + (unsigned long long)((double)(end - start) * fraction);
    while (now() < until) {}
  }
  return result;
}
