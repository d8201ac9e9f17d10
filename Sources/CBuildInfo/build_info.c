#include "build_info.h"

// PODIUM_COMMIT is defined by Package.swift from the checkout's git information.
#ifndef PODIUM_COMMIT
#define PODIUM_COMMIT "unknown"
#endif

const char *podium_build_commit(void) { return PODIUM_COMMIT; }
