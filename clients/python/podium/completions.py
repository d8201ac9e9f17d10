"""Recording completions so that none is lost and none counts twice: retries with the same id, and an offline queue."""

import json
import os
import time
from dataclasses import dataclass, field

import httpx

from podium_client.api.completions import record_completion, record_completion_batch
from podium_client.models import BatchRequest, CompletionRequest, CompletionResponse

# Answers worth sending again: Podium did not record the completion, or may have (then the retry is a replay).
RETRIED = {429, 500, 502, 503, 504}
BATCH = 500  # the most completions one batch takes


class CompletionRefused(Exception):
    """Podium answered that the completion cannot be recorded (400, 403, 409 or 422): sending it again cannot help."""

    def __init__(self, status, problem):
        super().__init__(f"{status}: {problem.get('detail') if isinstance(problem, dict) else problem}")
        self.status = status
        self.problem = problem


class CompletionUnavailable(Exception):
    """Podium could not take the completion now (429 or 5xx) and the attempts ran out: queue it and send it later."""

    def __init__(self, status, problem):
        super().__init__(f"{status}: Podium is unavailable; send the completion again later")
        self.status = status
        self.problem = problem


def _wait(response, attempt, backoff):
    """Seconds to wait before attempt `attempt + 1`: the answer's Retry-After when it gives one, else doubling."""
    retry_after = response.headers.get("Retry-After") if response is not None else None
    if retry_after and retry_after.isdigit():
        return min(60, int(retry_after))
    return backoff * (2 ** attempt)


def send_completion(client, completion, attempts=4, backoff=0.5, sleep=time.sleep):
    """Records `completion` (a dict as POST /v1/completions takes it, with its `id`; send `completed_at` too, the time
    the quiz was finished). Returns the `CompletionResponse`: created (201) or a replay of the same completion (200).

    A network error, a 429 or a 5xx is retried with the same body up to `attempts` times in all; Podium answers a
    retry of a completion it already recorded with the first answer, so the points count once. Raises
    `CompletionRefused` for an answer that a retry cannot change, and `CompletionUnavailable` (or the network error)
    when the attempts run out: then queue it (`OfflineQueue`) with the same body.
    """
    body = CompletionRequest.from_dict(completion)
    for attempt in range(attempts):
        response = None
        try:
            response = record_completion.sync_detailed(client=client, body=body)
        except httpx.TransportError:
            if attempt == attempts - 1:
                raise
        if response is not None:
            status = int(response.status_code)
            if status in (200, 201):
                return CompletionResponse.from_dict(json.loads(response.content))
            if status not in RETRIED:
                raise CompletionRefused(status, json.loads(response.content or b"null"))
            if attempt == attempts - 1:
                raise CompletionUnavailable(status, json.loads(response.content or b"null"))
        sleep(_wait(response, attempt, backoff))
    raise AssertionError("unreachable")


@dataclass
class SyncReport:
    """What one `OfflineQueue.sync` did."""

    recorded: list = field(default_factory=list)  # ids recorded now (201)
    replayed: list = field(default_factory=list)  # ids Podium already had (200): sent before, answer lost
    refused: list = field(default_factory=list)  # (id, status, problem): dropped, a resend cannot help
    left: int = 0  # still queued: Podium could not be reached, or refused for now (500)


class OfflineQueue:
    """Completions kept in a JSON-lines file until Podium takes them, then sent through the batch route.

    `add` checks the completion's shape and appends it to the file at once (a crash loses nothing added; a line torn by
    a crash is skipped). `sync` sends the queue in batches of up to 500 with `mode=partial`: recorded and replayed
    completions leave the queue; refused ones (400, 403, 409, 422) leave it and are reported; a 500 item, or a batch
    that could not be sent, stays for the next sync; a completion added while a sync runs stays too. Every completion
    keeps its id, so a batch sent twice (its answer lost) is answered as replays and counts once. One process at a
    time uses a queue file.
    """

    def __init__(self, path):
        self.path = path

    def add(self, completion):
        """Queues `completion` (a dict as POST /v1/completions takes it; give it `completed_at`). Raises when its
        shape is not a completion's (a missing field, a wrong type), so the queue never holds what a batch refuses whole."""
        CompletionRequest.from_dict(completion)
        with open(self.path, "a", encoding="utf-8") as file:
            file.write(json.dumps(completion, separators=(",", ":")) + "\n")
            file.flush()
            os.fsync(file.fileno())

    def pending(self):
        """The queued completions, oldest first."""
        if not os.path.exists(self.path):
            return []
        pending = []
        with open(self.path, encoding="utf-8") as file:
            for line in file:
                try:
                    pending.append(json.loads(line))
                except ValueError:
                    continue  # a line torn by a crash while it was written
        return pending

    def _keep(self, completions):
        temporary = f"{self.path}.tmp"
        with open(temporary, "w", encoding="utf-8") as file:
            file.writelines(json.dumps(c, separators=(",", ":")) + "\n" for c in completions)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)

    def sync(self, client):
        """Sends what is queued; returns a `SyncReport`."""
        queued = self.pending()
        report = SyncReport()
        settled = set()
        for first in range(0, len(queued), BATCH):
            chunk = queued[first:first + BATCH]
            try:
                response = record_completion_batch.sync_detailed(
                    client=client, body=BatchRequest.from_dict({"completions": chunk}), mode="partial")
            except httpx.TransportError:
                break
            if int(response.status_code) != 200:
                break
            results = json.loads(response.content)["results"]
            for item, result in zip(chunk, results):
                status = result["status"]
                if status == 201:
                    report.recorded.append(item["id"])
                elif status == 200:
                    report.replayed.append(item["id"])
                elif status == 500:
                    continue  # refused for now: it stays
                else:
                    report.refused.append((item.get("id"), status, result.get("problem")))
                settled.add(item["id"])
        # Read again: what was added while the batches were sent stays, with everything not settled.
        left = [item for item in self.pending() if item.get("id") not in settled]
        self._keep(left)
        report.left = len(left)
        return report
