#include "CCallgrind.h"

// Request codes, from valgrind.h and callgrind.h: a tool's requests start at
// ('C' << 24 | 'T' << 16) for Callgrind, in the order DUMP_STATS, ZERO_STATS, TOGGLE_COLLECT.
enum {
  RUNNING_ON_VALGRIND = 0x1001,
  CALLGRIND_BASE = ((unsigned)'C' << 24) | ((unsigned)'T' << 16),
  CALLGRIND_DUMP_STATS = CALLGRIND_BASE + 0,
  CALLGRIND_ZERO_STATS = CALLGRIND_BASE + 1,
  CALLGRIND_TOGGLE_COLLECT = CALLGRIND_BASE + 2,
};

static unsigned long request(unsigned long fallback, unsigned long code) {
#if defined(__x86_64__)
  volatile unsigned long arguments[6] = {code, 0, 0, 0, 0, 0};
  volatile unsigned long result;
  __asm__ volatile("rolq $3,  %%rdi ; rolq $13, %%rdi\n\t"
                   "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
                   "xchgq %%rbx,%%rbx"
                   : "=d"(result)
                   : "a"(&arguments[0]), "0"(fallback)
                   : "cc", "memory");
  return result;
#else
  (void)code;
  return fallback;
#endif
}

unsigned long cachebench_running_on_valgrind(void) { return request(0, RUNNING_ON_VALGRIND); }
void cachebench_callgrind_zero_stats(void) { (void)request(0, CALLGRIND_ZERO_STATS); }
void cachebench_callgrind_toggle_collect(void) { (void)request(0, CALLGRIND_TOGGLE_COLLECT); }
void cachebench_callgrind_dump_stats(void) { (void)request(0, CALLGRIND_DUMP_STATS); }
