// A preload library that moves the wall clock of a process ahead by whole days and seconds,
// for ops/test/date-shift.sh: `PODIUM_CLOCK_SHIFT_DAYS=40 LD_PRELOAD=libclock_shift.so cmd`
// (and PODIUM_CLOCK_SHIFT_SECONDS for less than a day: the console test's period in its grace).
//
// Only the wall clock (CLOCK_REALTIME and its variants, gettimeofday, time) moves;
// monotonic clocks, sleeps and poll timeouts are left alone, so timers and
// timeouts measure real durations. Debian's faketime intercepts those too and
// deadlocked the Swift test process (Foundation's Process and run loops).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long long shift_seconds(void) {
    static long long cached = -1;
    if (cached < 0) {
        const char *days = getenv("PODIUM_CLOCK_SHIFT_DAYS");
        const char *seconds = getenv("PODIUM_CLOCK_SHIFT_SECONDS");
        cached = (days ? atoll(days) * 86400LL : 0) + (seconds ? atoll(seconds) : 0);
        if (cached < 0) cached = 0;
    }
    return cached;
}

static int is_wall_clock(clockid_t clock) {
    return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, ts);
    if (result == 0 && is_wall_clock(clock)) ts->tv_sec += shift_seconds();
    return result;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    static int (*real)(struct timeval *restrict, void *restrict);
    if (!real) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(tv, tz);
    if (result == 0) tv->tv_sec += shift_seconds();
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (out) *out = now.tv_sec;
    return now.tv_sec;
}
