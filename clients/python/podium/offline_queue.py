"""Completions kept in a file while Podium cannot take them, then sent through the batch route: each one is reported as
recorded, replayed, refused (with its problem) or left (with why), and none is lost or counted twice."""

from __future__ import annotations

import datetime
import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .client import AsyncPodium, Podium
from .completions import completion_body
from .errors import AuthenticationFailed, PodiumError, Problem, Unavailable

BATCH = 500
"""The most completions one batch takes."""

Outcome = Literal["recorded", "replayed", "refused", "left"]
"""What became of a queued completion in a sync: "recorded" (201), "replayed" (200: Podium had it already),
"refused" (dropped from the queue, with its problem) or "left" (still queued, with a `LeftReason`)."""
LeftReason = Literal["offline", "authentication", "rate_limited", "unavailable"]
"""Why a completion was left queued: no answer ("offline"), the credential refused after one refresh or the batch
refused with 403 ("authentication"), a 429 ("rate_limited"), or a 5xx, a page or answer that is not Podium's, or an
item Podium could not store now ("unavailable")."""

_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _lock_for(path: str) -> threading.Lock:
    """The lock of the queue file at `path`, shared by every `OfflineQueue` on it in this process."""
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(os.path.realpath(path), threading.Lock())


@dataclass(frozen=True)
class SyncOutcome:
    """What became of one queued completion in a sync.

    `outcome`: "recorded" (new, 201), "replayed" (Podium had it already, 200: an earlier answer was lost), "refused"
    (dropped from the queue: a resend cannot help; `problem` says why) or "left" (still queued; `reason` says why:
    "offline", "authentication" (the credential was refused after one refresh), "rate_limited" (wait `retry_after`
    seconds) or "unavailable" (a 5xx, a proxy's error page, or Podium refused the item for now)).
    """

    id: str
    outcome: Outcome
    problem: Problem | None = None
    reason: LeftReason | None = None
    retry_after: float | None = None


@dataclass(frozen=True)
class SyncReport:
    """What one `OfflineQueue.sync` did: one `SyncOutcome` per completion queued when it started, in queue order."""

    items: tuple[SyncOutcome, ...] = ()

    def _ids(self, outcome: Outcome) -> list[str]:
        return [item.id for item in self.items if item.outcome == outcome]

    @property
    def recorded(self) -> list[str]:
        """Ids recorded now."""
        return self._ids("recorded")

    @property
    def replayed(self) -> list[str]:
        """Ids Podium already had (sent before, the answer lost): they count once."""
        return self._ids("replayed")

    @property
    def refused(self) -> list[str]:
        """Ids refused and dropped from the queue (their `problem` is in `items`)."""
        return self._ids("refused")

    @property
    def left(self) -> list[str]:
        """Ids still queued (their `reason` is in `items`)."""
        return self._ids("left")

    @property
    def retry_after(self) -> float | None:
        """The longest `Retry-After` among the items left, when Podium gave one: sync again no sooner."""
        waits = [item.retry_after for item in self.items if item.retry_after is not None]
        return max(waits) if waits else None


def _left(chunk: Sequence[Mapping[str, Any]], failure: PodiumError) -> list[SyncOutcome]:
    """The chunk's items, left queued because its batch failed with `failure`."""
    reason: LeftReason
    if isinstance(failure, Unavailable):
        reason = failure.reason
    elif isinstance(failure, AuthenticationFailed) or failure.status == 403:
        reason = "authentication"  # this credential may not post them; another may: keep them
    else:
        reason = "unavailable"  # the batch as a whole was refused (it never is for what `add` takes): keep them
    retry_after = failure.problem.retry_after if failure.problem is not None else None
    return [SyncOutcome(str(item.get("id")), "left", failure.problem, reason, retry_after) for item in chunk]


def _settled(chunk: Sequence[Mapping[str, Any]], answer: Any) -> list[SyncOutcome]:
    """The chunk's items as the batch's per-item results report them. Read defensively: an answer without `results`,
    or an item's result that is not a result (null, no integer status), leaves that item "unavailable"."""
    results = answer.get("results") if isinstance(answer, Mapping) else None
    if not isinstance(results, list):
        results = []
    outcomes = []
    for index, item in enumerate(chunk):
        identifier = str(item.get("id"))
        result = results[index] if index < len(results) else None
        status = result.get("status") if isinstance(result, Mapping) else None
        if not isinstance(result, Mapping) or not isinstance(status, int) or isinstance(status, bool):
            outcomes.append(SyncOutcome(identifier, "left", None, "unavailable"))
            continue
        document = result.get("problem")
        problem = Problem.from_dict(document, status) if isinstance(document, Mapping) else None
        if status in (200, 201):
            outcomes.append(SyncOutcome(identifier, "recorded" if status == 201 else "replayed"))
        elif status >= 500 or status < 400:
            outcomes.append(SyncOutcome(identifier, "left", problem, "unavailable"))
        else:
            outcomes.append(SyncOutcome(identifier, "refused", problem))
    return outcomes


def _batch_request(chunk: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"method": "POST", "url": "/v1/completions/batch", "params": {"mode": "partial"},
            "json": {"completions": list(chunk)}}


class OfflineQueue:
    """Completions kept in a JSON-lines file at `path` until Podium takes them.

    `add` checks a completion and appends it at once (a crash loses nothing added; a line torn by a crash is
    skipped). `sync` sends the queue through `POST /v1/completions/batch?mode=partial`, 500 at a time, each batch once:
    recorded, replayed and refused completions leave the queue; the others stay for the next sync, and so does one
    added while a sync runs. A completion keeps its id and body, so a batch whose answer was lost is answered with
    replays when sent again: it counts once. `sync` raises no `PodiumError`: the report says what happened to each
    item.

    Threads of one process may share a queue: `add` and the end of `sync` (reading the file again and rewriting it)
    hold a lock, so a completion added from another thread while a sync runs is never lost. Processes may not: one
    process at a time uses a queue file.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._lock = _lock_for(self.path)

    def add(self, completion: Mapping[str, Any]) -> None:
        """Queues `completion` (as `Podium.record` takes it). Without `completed_at` it gets the current time, so it
        counts when it was played, not when it is synced. Raises `InvalidCompletion` (a `ValueError` naming the field)
        for what is not a completion."""
        body = completion_body(completion, now=datetime.datetime.now(datetime.timezone.utc))
        line = (json.dumps(body, separators=(",", ":")) + "\n").encode("utf-8")
        with self._lock, open(self.path, "a+b") as file:
            if file.seek(0, os.SEEK_END) > 0:
                file.seek(-1, os.SEEK_END)
                if file.read(1) != b"\n":
                    line = b"\n" + line  # a line torn by a crash: end it, so this one stays whole
            file.write(line)
            file.flush()
            os.fsync(file.fileno())

    def pending(self) -> list[dict[str, Any]]:
        """The queued completions, oldest first."""
        if not os.path.exists(self.path):
            return []
        pending = []
        with open(self.path, encoding="utf-8") as file:
            for line in file:
                try:
                    item = json.loads(line)
                except ValueError:
                    continue  # a line torn by a crash while it was written
                if isinstance(item, dict):
                    pending.append(item)
        return pending

    def sync(self, podium: Podium) -> SyncReport:
        """Sends what is queued through `podium`; returns what became of each completion."""
        outcomes: list[SyncOutcome] = []
        failure: PodiumError | None = None
        for chunk in self._chunks():
            if failure is None:
                try:
                    outcomes += _settled(chunk, podium.send_once(_batch_request(chunk)))
                    continue
                except PodiumError as error:
                    failure = error
            outcomes += _left(chunk, failure)
        return self._finish(outcomes)

    async def sync_async(self, podium: AsyncPodium) -> SyncReport:
        """As `sync`, through an `AsyncPodium`."""
        outcomes: list[SyncOutcome] = []
        failure: PodiumError | None = None
        for chunk in self._chunks():
            if failure is None:
                try:
                    outcomes += _settled(chunk, await podium.send_once(_batch_request(chunk)))
                    continue
                except PodiumError as error:
                    failure = error
            outcomes += _left(chunk, failure)
        return self._finish(outcomes)

    def _chunks(self) -> list[list[dict[str, Any]]]:
        queued = self.pending()
        return [queued[first:first + BATCH] for first in range(0, len(queued), BATCH)]

    def _finish(self, outcomes: list[SyncOutcome]) -> SyncReport:
        """Keeps what is left, and what was added meanwhile (read again), in the file; returns the report."""
        settled = {outcome.id for outcome in outcomes if outcome.outcome != "left"}
        with self._lock:
            left = [item for item in self.pending() if str(item.get("id")) not in settled]
            temporary = f"{self.path}.tmp"
            with open(temporary, "w", encoding="utf-8") as file:
                file.writelines(json.dumps(item, separators=(",", ":")) + "\n" for item in left)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
            _fsync_directory(os.path.dirname(os.path.abspath(self.path)))
        return SyncReport(tuple(outcomes))


def _fsync_directory(directory: str) -> None:
    """Makes a rename in `directory` durable; skipped where a directory cannot be opened (Windows)."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
