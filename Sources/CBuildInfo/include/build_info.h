#ifndef PODIUM_BUILD_INFO_H
#define PODIUM_BUILD_INFO_H

/// The git commit this build was made from, as Package.swift found it ("unknown" outside a git checkout).
const char *podium_build_commit(void);

#endif
