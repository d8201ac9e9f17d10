# Podium container image: build with the official Swift image, run on Debian 12 slim.
#
# Not built with Docker: the machine where it was written has no Docker daemon
# and no registry access. What was checked there instead (2026-11-22, see
# ops/README.md): the build stage's commands (static-stdlib release build and
# staging) on the host, and the runtime stage as a debootstrap'd Debian 12
# minbase chroot with exactly the packages below, running /app/podium serve as
# uid 10001 against PostgreSQL and Redis, plus the HEALTHCHECK command.
# Local development and CI use ops/run.sh and ops/test.sh.
#
#   docker build -t podium .
#   docker run --rm -p 8080:8080 -e PODIUM_DATABASE_URL=... -e PODIUM_REDIS_URL=... podium
#
# The local toolchain is Swift 6.3; the package and its dependencies (Hummingbird,
# swift-log, swift-service-lifecycle, …) need tools 6.2 or newer. Pick another
# builder with --build-arg SWIFT_IMAGE=swift:6.x-bookworm (keep it on bookworm:
# the runtime stage's libpq5 / libhiredis0.14 are Debian 12's).
ARG SWIFT_IMAGE=swift:6.3-bookworm

# ---- build ------------------------------------------------------------------
FROM ${SWIFT_IMAGE} AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libpq-dev libhiredis-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build
# Dependencies first, so that they stay cached while only our sources change
# (Package.resolved is optional: it pins versions when present).
COPY Package.swift Package.resolve[d] ./
RUN swift package resolve

COPY . .
# Static Swift runtime and Foundation: the runtime image needs only the C
# libraries (libpq, hiredis) and the system ones.
RUN swift build -c release --product podium --static-swift-stdlib

# Stage the binary with the resource bundles SwiftPM puts next to it (SQL
# migrations, OpenAPI document, display page): Bundle.module looks for them in
# the executable's folder.
RUN set -eu; \
    bin="$(swift build -c release --show-bin-path)"; \
    mkdir -p /staging; \
    cp "$bin/podium" /staging/; \
    cp -RL "$bin/podium_PodiumStore.resources" "$bin/podium_PodiumHTTP.resources" /staging/; \
    find -L "$bin" -maxdepth 1 -name '*.resources' ! -name 'podium_Podium*' -exec cp -RL {} /staging/ \; ; \
    if [ -x /usr/libexec/swift/linux/swift-backtrace-static ]; then \
        cp /usr/libexec/swift/linux/swift-backtrace-static /staging/; \
    fi

# ---- runtime ----------------------------------------------------------------
FROM debian:bookworm-slim
# tzdata: leaderboard periods and reminders are cut in IANA time zones.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libpq5 libhiredis0.14 ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin podium

WORKDIR /app
COPY --from=build /staging/ /app/

ENV PATH=/app:$PATH \
    MALLOC_ARENA_MAX=2 \
    PODIUM_HOST=0.0.0.0 \
    PODIUM_PORT=8080 \
    SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/app/swift-backtrace-static

USER podium:podium
EXPOSE 8080
# No curl in the image: bash's /dev/tcp asks /healthz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PODIUM_PORT:-8080} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["podium"]
CMD ["serve"]
