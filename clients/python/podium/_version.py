"""The client's version. In a source checkout it is a placeholder: `clients/python/build.sh` writes the server's version
(`Sources/PodiumHTTP/BuildInfo.swift`, the one source of truth) into the copy it builds the wheel and sdist from."""

__version__ = "0+source"
